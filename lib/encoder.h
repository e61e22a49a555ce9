// How a document's text is written: the encoders behind every format.
//  - XML in a charset (UTF-8 or windows-1251): a declaration that names the
//    charset, markup from the template, values escaped for where they stand
//    and encoded (see xml_text.h).
//  - Plain text (text sitemaps): UTF-8, no declaration, no markup, no
//    escaping; invalid UTF-8 and characters XML forbids are dropped as
//    everywhere, and a value holding a line break is refused (the row is
//    left out), because a line is one item.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "xml_text.h"

namespace feed {

enum class Format { kXml, kText };

class Encoder {
 public:
  static std::unique_ptr<Encoder> Make(Format format, Charset cs);
  virtual ~Encoder() = default;

  virtual Format format() const = 0;
  virtual Charset charset() const = 0;
  // What comes before the document's first byte of content.
  virtual void Declaration(std::string& out) const = 0;
  // Template text (UTF-8) standing in `ctx`.
  virtual void Literal(std::string& out, std::string_view utf8, XmlContext ctx) const = 0;
  // A value from a row or the document; false (having appended nothing)
  // when the format refuses it.
  virtual bool Value(std::string& out, std::string_view utf8, XmlContext ctx) const = 0;
};

}  // namespace feed
