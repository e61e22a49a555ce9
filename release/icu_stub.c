/* libicuuc of the release: the few ICU converter functions libxml2 links
 * against, each answering that no converter is available. libxml2 uses ICU
 * only for encodings it has no built-in or iconv converter for; the program
 * gives it UTF-8 documents (check's sitemap validation), so the release
 * carries this file of a few KiB instead of ICU's 33 MB (libicuuc and its
 * data). VERSION is ICU's major version, the suffix of its symbol names. */
#include <stddef.h>

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define SYM(name) CAT(name, VERSION)

typedef int UErrorCode;
enum { U_FILE_ACCESS_ERROR = 4 };

void *SYM(ucnv_open)(const char *name, UErrorCode *err) {
  (void)name;
  if (err && *err <= 0) *err = U_FILE_ACCESS_ERROR;
  return NULL;
}
void SYM(ucnv_close)(void *converter) { (void)converter; }
void SYM(ucnv_convertEx)(void) {}
void SYM(ucnv_setFromUCallBack)(void *c, const void *a, const void *b, void *d, void *e, UErrorCode *err) {
  (void)c, (void)a, (void)b, (void)d, (void)e;
  if (err && *err <= 0) *err = U_FILE_ACCESS_ERROR;
}
void SYM(ucnv_setToUCallBack)(void *c, const void *a, const void *b, void *d, void *e, UErrorCode *err) {
  (void)c, (void)a, (void)b, (void)d, (void)e;
  if (err && *err <= 0) *err = U_FILE_ACCESS_ERROR;
}
void SYM(UCNV_FROM_U_CALLBACK_STOP)(void) {}
void SYM(UCNV_TO_U_CALLBACK_STOP)(void) {}
