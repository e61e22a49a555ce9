#include "template.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ascii.h"
#include "config.h"
#include "error.h"
#include "url.h"
#include "value_list.h"
#include "children.h"
#include "clock.h"
#include "datetime.h"

namespace feed {
namespace {

enum class OpCode { kLiteral, kRowValue, kDocValue, kIf, kRepeat };
enum class DocVar { kDate, kContinue, kMore, kName, kUpdated, kEmpty };

struct Op {
  OpCode code = OpCode::kLiteral;
  std::string literal;  // kLiteral: bytes ready to write
  bool row = false;     // kIf: tests a row field (else a document value)
  int field = -1;       // kRowValue, kIf on a row: index into Plan::fields, or the scope's fields
  int scope = 0;        // 0: the row; s > 0: Plan::scopes[s - 1] (also kRepeat's scope)
  DocVar doc = DocVar::kDate;
  std::vector<FilterFn> filters;
  // kRowValue: each filter's windows-1251 way (filters.h), or none when a
  // filter has none.
  std::vector<Cp1251FilterFn> cp1251_filters;
  // kRowValue: a windows-1251 value may go the windows-1251 way (no
  // filter, or each has a windows-1251 way).
  bool Cp1251Way() const { return cp1251_filters.size() == filters.size(); }
  XmlContext ctx = XmlContext::kText;
  bool negate = false;  // kIf: "!name"
  size_t skip_to = 0;   // kIf: where to go when the test fails; kRepeat: the op after its body
};

enum class RuleKind { kRequired, kAlnum, kMaxLen, kUrl, kFileType, kDate };
struct Rule {
  int field;
  RuleKind kind;
  size_t n = 0;
  std::string text;  // as written, for the report
};

// A repeated element inside the row element: once per row of a child
// query (feed:each="NAME") or per piece of a row field (feed:split).
struct Scope {
  bool split = false;
  std::string name;                 // the child query, or the split field
  int split_field = -1;             // split: the row field split (Plan::fields)
  std::string separators;           // split: feed:sep
  std::vector<std::string> fields;  // child: its fields; split: the piece alone
  std::vector<int> field_lines;
  std::vector<int> columns;  // child: fields[i] -> the child query's column
  std::vector<Rule> rules;   // feed:require on the repeated element, on its fields
  size_t min = 0;            // feed:min: fewer items kept leaves the row out
  std::vector<int> past;     // feed:past: fields (into `fields`) never later than now
  int child = -1;            // child: index into Plan::children
  int line = 0;
};

size_t CountChars(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

struct Template::Plan {
  std::string file;
  std::unique_ptr<Encoder> enc;
  // The document is windows-1251 XML: a row's windows-1251 values (a cp1251
  // connection's) are written without a trip through UTF-8 where their
  // filters allow (Op::Cp1251Way).
  bool cp1251_out = false;
  TimeZone zone = TimeZone::Utc();  // for the date filters
  // feed:past: row fields (indexes into `fields`) whose dates are never
  // later than the clock's now; a later one is written as now.
  std::vector<int> past;
  bool has_past = false;  // feed:past on the row or a repeated element
  SystemClock system_clock;
  const Clock* clock = &system_clock;
  std::vector<Op> head, row, tail;
  std::vector<std::string> fields;  // row fields named, in first-use order
  std::vector<int> field_lines;
  std::vector<int> columns;  // fields[i] -> result column, after BindColumns
  std::vector<Rule> rules;
  std::vector<Rule> notes;  // feed:note: broken, the row is kept and the break reported
  int key_field = -1;  // feed:key: names a rejected row
  std::vector<Scope> scopes;
  std::vector<std::string> children;  // child queries named by feed:each, in first-use order
};

namespace {

class Compiler {
 public:
  Compiler(Template::Plan* plan, const std::map<std::string, std::string>& fixed)
      : p_(plan), fixed_(fixed), section_(&plan->head), markup_(plan->enc->format() == Format::kXml) {}

  void Document(const tinyxml2::XMLDocument& doc) {
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (!root) throw Error(1, "no root element");
    Element(root);
    if (!seen_each_) throw Error(root->GetLineNum(), "no element has feed:each=\"row\"");
  }

 private:
  FeedError Error(int line, const std::string& what) const {
    return ConfigError(p_->file + ":" + std::to_string(line) + ": " + what);
  }

  void Literal(std::string_view encoded) {
    if (encoded.empty()) return;
    if (!section_->empty() && section_->back().code == OpCode::kLiteral) {
      section_->back().literal.append(encoded);
    } else {
      Op op;
      op.literal = std::string(encoded);
      section_->push_back(std::move(op));
    }
  }

  void LiteralText(std::string_view utf8, XmlContext ctx) {
    std::string enc;
    p_->enc->Literal(enc, utf8, ctx);
    Literal(enc);
  }
  // Markup: written by XML formats only.
  void Markup(std::string_view encoded) {
    if (markup_) Literal(encoded);
  }
  void MarkupText(std::string_view utf8) {
    if (markup_) LiteralText(utf8, XmlContext::kText);
  }

  // A field as the current scope sees it: inside a child element a child
  // field; inside a split element the piece under the split field's name,
  // other names being row fields. Sets *scope to where it lives.
  int ScopedField(const std::string& name, int line, int* scope) {
    *scope = 0;
    if (scope_ > 0) {
      Scope& sc = p_->scopes[scope_ - 1];
      if (!sc.split || name == sc.name) {
        *scope = scope_;
        auto it = std::find(sc.fields.begin(), sc.fields.end(), name);
        if (it != sc.fields.end()) return static_cast<int>(it - sc.fields.begin());
        sc.fields.push_back(name);
        sc.field_lines.push_back(line);
        return static_cast<int>(sc.fields.size() - 1);
      }
    }
    return FieldIndex(name, line);
  }

  int FieldIndex(const std::string& name, int line) {
    auto it = std::find(p_->fields.begin(), p_->fields.end(), name);
    if (it != p_->fields.end()) return static_cast<int>(it - p_->fields.begin());
    p_->fields.push_back(name);
    p_->field_lines.push_back(line);
    return static_cast<int>(p_->fields.size() - 1);
  }

  // tinyxml2 takes any byte from 0x80 up in a name, and the writer drops
  // what is not UTF-8 and writes a character the charset lacks as a
  // reference: either would break the output's markup. So a name is an XML
  // Name, of characters the output charset has.
  void CheckMarkupName(const std::string& name, const char* kind, int line) const {
    if (!markup_) return;  // plain text writes no names
    if (!IsXmlName(name)) throw Error(line, std::string(kind) + " name '" + CleanUtf8(name) + "' is not an XML name");
    const Charset cs = p_->enc->charset();
    for (size_t i = 0; i < name.size();) {
      size_t len;
      if (!cs.Has(*DecodeUtf8(std::string_view(name).substr(i), &len))) {
        throw Error(line, std::string(kind) + " name '" + name + "' has a character " + CharsetName(cs) + " lacks");
      }
      i += len;
    }
  }

  static bool IsName(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
    }
    return true;
  }

  DocVar DocVarOf(const std::string& name, int line) const {
    if (name == "feed.date") return DocVar::kDate;
    if (name == "feed.continue") return DocVar::kContinue;
    if (name == "feed.more") return DocVar::kMore;
    if (name == "feed.name") return DocVar::kName;
    if (name == "feed.updated") return DocVar::kUpdated;
    if (name == "feed.empty") return DocVar::kEmpty;
    throw Error(line, "unknown value '" + name +
                          "'; known: feed.date, feed.continue, feed.more, feed.name, feed.updated, feed.empty, site.KEY, "
                          "value.KEY, or a row field");
  }

  // One {name|filter|...}: emits the op (or, for site.*, the literal).
  void Placeholder(std::string_view spec, XmlContext ctx, int line) {
    std::vector<std::string> parts;
    size_t pos = 0;
    for (;;) {
      size_t bar = spec.find('|', pos);
      parts.emplace_back(TrimSpace(spec.substr(pos, bar == std::string_view::npos ? bar : bar - pos)));
      if (bar == std::string_view::npos) break;
      pos = bar + 1;
    }
    const std::string& name = parts[0];
    if (!IsName(name)) throw Error(line, "bad placeholder {" + std::string(spec) + "}");
    Op op;
    op.ctx = ctx;
    for (size_t i = 1; i < parts.size(); ++i) {
      FilterFn f = FindFilter(parts[i]);
      if (!f) throw Error(line, "unknown filter '" + parts[i] + "'; known: " + FilterNames());
      // Once a filter has no windows-1251 way, the list stays short of
      // `filters`: the value always takes the UTF-8 way.
      if (Cp1251FilterFn f1251 = FindCp1251Filter(parts[i]); f1251 && op.Cp1251Way()) {
        op.cp1251_filters.push_back(f1251);
      }
      op.filters.push_back(f);
    }
    const bool site = name.rfind("site.", 0) == 0;
    if (site || name.rfind("value.", 0) == 0) {
      // Known when the config is loaded: written as a literal now. A missing
      // [site] key is a mistake; a missing value.KEY is simply empty.
      auto it = fixed_.find(name);
      if (site && it == fixed_.end())
        throw Error(line, "{" + name + "}: no key '" + name.substr(5) + "' in the config's [site]");
      std::string v = it == fixed_.end() ? "" : it->second, tmp;
      for (FilterFn f : op.filters) {
        tmp.clear();
        f(v, tmp, p_->zone);
        v.swap(tmp);
      }
      LiteralText(v, ctx);
      return;
    }
    if (name.find('.') != std::string::npos) {
      if (in_row_) throw Error(line, "{" + name + "}: feed.* values stand outside the feed:each element");
      op.code = OpCode::kDocValue;
      op.doc = DocVarOf(name, line);
    } else {
      if (!in_row_) throw Error(line, "row field {" + name + "} outside the feed:each element");
      op.code = OpCode::kRowValue;
      op.field = ScopedField(name, line, &op.scope);
    }
    section_->push_back(std::move(op));
  }

  // Text with placeholders, as tinyxml2 gives it (entities decoded).
  void Text(std::string_view text, XmlContext ctx, int line) {
    std::string lit;
    size_t i = 0;
    while (i < text.size()) {
      char c = text[i];
      if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
        lit += '{';
        i += 2;
      } else if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
        lit += '}';
        i += 2;
      } else if (c == '{') {
        size_t end = text.find('}', i);
        if (end == std::string_view::npos) throw Error(line, "'{' without '}' (write {{ for a literal brace)");
        LiteralText(lit, ctx);
        lit.clear();
        Placeholder(text.substr(i + 1, end - i - 1), ctx, line);
        i = end + 1;
      } else if (c == '}') {
        throw Error(line, "'}' without '{' (write }} for a literal brace)");
      } else {
        lit += c;
        ++i;
      }
    }
    LiteralText(lit, ctx);
  }

  // feed:require (or, with `notes`, feed:note on the row element).
  void Rules(std::string_view spec, int line, bool notes = false) {
    std::vector<Rule>& rules = notes ? p_->notes : scope_ > 0 ? p_->scopes[scope_ - 1].rules : p_->rules;
    std::istringstream in{std::string(spec)};
    std::string tok;
    while (in >> tok) {
      size_t colon = tok.find(':');
      if (colon == std::string::npos || colon == 0)
        throw Error(line, "feed:require takes FIELD:RULE items, not '" + tok + "'");
      Rule r;
      std::string field = tok.substr(0, colon), rule = tok.substr(colon + 1);
      if (!IsName(field) || field.find('.') != std::string::npos)
        throw Error(line, "feed:require: '" + field + "' is not a row field");
      int scope = 0;
      r.field = ScopedField(field, line, &scope);
      if (scope != scope_) throw Error(line, "feed:require on a split element names its field, '" + field + "' is not it");
      r.text = rule;
      if (rule == "required")
        r.kind = RuleKind::kRequired;
      else if (rule == "alnum")
        r.kind = RuleKind::kAlnum;
      else if (rule == "url")
        r.kind = RuleKind::kUrl, r.n = 2048;
      else if (rule == "filetype")
        r.kind = RuleKind::kFileType;
      else if (rule == "date")
        r.kind = RuleKind::kDate;
      else if (rule.rfind("url=", 0) == 0 && rule.size() > 4 && rule.size() < 10 &&
               rule.find_first_not_of("0123456789", 4) == std::string::npos && std::stoul(rule.substr(4)) > 0)
        r.kind = RuleKind::kUrl, r.n = std::stoul(rule.substr(4));
      else if (rule.rfind("maxlen=", 0) == 0 && rule.size() > 7 && rule.size() < 14 &&
               rule.find_first_not_of("0123456789", 7) == std::string::npos) {
        r.kind = RuleKind::kMaxLen;
        r.n = std::stoul(rule.substr(7));
      } else {
        throw Error(line, "unknown rule '" + rule + "'; known: required, alnum, maxlen=N, url, url=N, filetype, date");
      }
      rules.push_back(r);
    }
  }

  // feed:past="FIELD ...": of the row, or of the repeated element being compiled.
  void Past(std::string_view spec, int line) {
    std::istringstream in{std::string(spec)};
    for (std::string f; in >> f;) {
      if (!IsName(f) || f.find('.') != std::string::npos) throw Error(line, "feed:past names fields, not '" + f + "'");
      int scope = 0;
      const int field = ScopedField(f, line, &scope);
      if (scope != scope_) throw Error(line, "feed:past on a split element names its field, '" + f + "' is not it");
      (scope_ > 0 ? p_->scopes[scope_ - 1].past : p_->past).push_back(field);
      p_->has_past = true;
    }
  }

  void BeginRepeat(const char* each, const char* split, const char* sep, const char* min, const char* cond,
                   const char* key, int line) {
    if (!in_row_) throw Error(line, "feed:split stands inside the feed:each=\"row\" element");
    if (scope_ > 0) throw Error(line, "repeated elements do not nest");
    if (each && split) throw Error(line, "feed:each and feed:split on one element");
    if (cond) throw Error(line, "feed:if and a repeated element on one element (put the feed:if on its parent)");
    if (key) throw Error(line, "feed:key belongs on the feed:each=\"row\" element");
    Scope sc;
    sc.line = line;
    if (split) {
      std::string f(TrimSpace(split));
      if (!IsName(f) || f.find('.') != std::string::npos) throw Error(line, "feed:split names a row field");
      sc.split = true;
      sc.name = f;
      sc.split_field = FieldIndex(f, line);
      sc.fields.push_back(f);
      sc.field_lines.push_back(line);
      sc.separators = sep ? std::string(sep) : std::string(kDefaultListSeparators);
      if (!IsListSeparatorSet(sc.separators)) {
        throw Error(line, "feed:sep is 1 to 16 separator characters, no spaces or control characters");
      }
    } else {
      if (sep) throw Error(line, "feed:sep belongs on a feed:split element");
      std::string n(TrimSpace(each));
      if (!IsName(n) || n.find('.') != std::string::npos) throw Error(line, "feed:each names a child query");
      sc.name = n;
      auto it = std::find(p_->children.begin(), p_->children.end(), n);
      if (it == p_->children.end()) it = p_->children.insert(p_->children.end(), n);
      sc.child = static_cast<int>(it - p_->children.begin());
    }
    if (min) {
      std::string m(TrimSpace(min));
      if (m.empty() || m.size() > 6 || m.find_first_not_of("0123456789") != std::string::npos) {
        throw Error(line, "feed:min is a whole number");
      }
      sc.min = std::stoul(m);
    }
    p_->scopes.push_back(std::move(sc));
    scope_ = static_cast<int>(p_->scopes.size());
    Op op;
    op.code = OpCode::kRepeat;
    op.scope = scope_;
    repeat_at_ = section_->size();
    section_->push_back(std::move(op));
  }

  void EndRepeat() {
    Op end;  // ends the body, as for feed:if
    section_->push_back(std::move(end));
    (*section_)[repeat_at_].skip_to = section_->size() - 1;
    scope_ = 0;
  }

  void Element(const tinyxml2::XMLElement* e) {
    int line = e->GetLineNum();
    std::string name = e->Name();
    if (name.rfind("feed:", 0) == 0) throw Error(line, "<" + name + ">: feed: names attributes, not elements");
    CheckMarkupName(name, "element", line);
    const char* each = nullptr;
    const char* cond = nullptr;
    const char* require = nullptr;
    const char* past = nullptr;
    const char* key = nullptr;
    const char* split = nullptr;
    const char* note = nullptr;
    const char* sep = nullptr;
    const char* min = nullptr;
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      std::string an = a->Name();
      if (an == "feed:split")
        split = a->Value();
      else if (an == "feed:note")
        note = a->Value();
      else if (an == "feed:sep")
        sep = a->Value();
      else if (an == "feed:min")
        min = a->Value();
      else if (an == "feed:each")
        each = a->Value();
      else if (an == "feed:key")
        key = a->Value();
      else if (an == "feed:if")
        cond = a->Value();
      else if (an == "feed:require")
        require = a->Value();
      else if (an == "feed:past")
        past = a->Value();
      else if (an.rfind("feed:", 0) == 0)
        throw Error(line, "unknown directive " + an +
                              "; known: feed:each, feed:if, feed:require, feed:note, feed:key, feed:past, feed:split, feed:sep, feed:min");
      else
        CheckMarkupName(an, "attribute", a->GetLineNum());
    }
    // feed:each="NAME" (not "row") or feed:split inside the row element: a
    // repeated element.
    const bool repeat = split || (each && std::string(TrimSpace(each)) != "row" && in_row_);
    if (repeat) {
      BeginRepeat(each, split, sep, min, cond, key, line);
      if (require) Rules(require, line);
      if (past) Past(past, line);
      each = nullptr;
      cond = nullptr;
    } else if (sep || min) {
      throw Error(line, "feed:sep and feed:min belong on a repeated element (feed:each=\"NAME\" or feed:split)");
    }
    if (require && !each && !repeat) throw Error(line, "feed:require belongs on the feed:each element");
    if (key && !each) throw Error(line, "feed:key belongs on the feed:each element");
    if (note && !each) throw Error(line, "feed:note belongs on the feed:each element");
    if (past && !each && !repeat) throw Error(line, "feed:past belongs on a feed:each element");
    if (each) {
      if (std::string(each) != "row") {
        throw Error(line, "feed:each takes \"row\" on the repeated row element, or a child query's name inside it");
      }
      if (seen_each_) throw Error(line, "a second feed:each element");
      if (cond) throw Error(line, "feed:if and feed:each on one element");
      if (if_depth_ > 0) throw Error(line, "the feed:each element cannot be inside a feed:if element");
      seen_each_ = true;
      in_row_ = true;
      section_ = &p_->row;
      if (require) Rules(require, line);
      if (note) Rules(note, line, /*notes=*/true);
      if (key) {
        std::string k(TrimSpace(key));
        if (!IsName(k) || k.find('.') != std::string::npos) throw Error(line, "feed:key names a row field");
        p_->key_field = FieldIndex(k, line);
      }
      if (past) Past(past, line);
    }
    if (cond) {
      // On a config value, known now: the element is kept or dropped here.
      std::string_view c = TrimSpace(cond);
      const bool negate = !c.empty() && c[0] == '!';
      const std::string key(TrimSpace(negate ? c.substr(1) : c));
      const bool site = key.rfind("site.", 0) == 0;
      if (site || key.rfind("value.", 0) == 0) {
        auto it = fixed_.find(key);
        if (site && it == fixed_.end()) {
          throw Error(line, "feed:if on " + key + ": no key '" + key.substr(5) + "' in the config's [site]");
        }
        const bool has = it != fixed_.end() && !TrimSpace(it->second).empty();
        if (has == negate) return;
        cond = nullptr;
      }
    }
    size_t if_at = 0;
    if (cond) {
      std::string c = std::string(TrimSpace(cond));
      Op op;
      op.code = OpCode::kIf;
      if (!c.empty() && c[0] == '!') {
        op.negate = true;
        c = std::string(TrimSpace(c.substr(1)));
      }
      // feed:if="field|filter|...": the value after the filters is tested
      // (legacy HTML that is only markup has no text).
      for (size_t bar; (bar = c.rfind('|')) != std::string::npos;) {
        const std::string f(TrimSpace(std::string_view(c).substr(bar + 1)));
        FilterFn fn = FindFilter(f);
        if (!fn) throw Error(line, "unknown filter '" + f + "'; known: " + FilterNames());
        op.filters.insert(op.filters.begin(), fn);
        c = std::string(TrimSpace(c.substr(0, bar)));
      }
      if (!IsName(c)) throw Error(line, "feed:if takes a name or !name");
      if (c.find('.') != std::string::npos) {
        if (in_row_) throw Error(line, "feed:if on " + c + ": feed.* values stand outside the feed:each element");
        op.doc = DocVarOf(c, line);
      } else {
        if (!in_row_) throw Error(line, "feed:if on row field '" + c + "' outside the feed:each element");
        op.row = true;
        op.field = ScopedField(c, line, &op.scope);
      }
      if_at = section_->size();
      section_->push_back(std::move(op));
      ++if_depth_;
    }
    Markup("<");
    MarkupText(name);
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      std::string an = a->Name();
      if (an.rfind("feed:", 0) == 0 || an == "xmlns:feed") continue;
      if (!markup_) continue;  // plain text has no attributes
      // An attribute made only of config values that are empty is left out
      // (hide_contacts="{value.hide_contacts}").
      std::vector<Op>* outer = section_;
      std::vector<Op> value;
      section_ = &value;
      Text(a->Value(), XmlContext::kAttribute, line);
      section_ = outer;
      if (*a->Value() != '\0' && value.empty()) continue;
      Literal(" ");
      LiteralText(an, XmlContext::kText);
      Literal("=\"");
      for (Op& op : value) {
        if (op.code == OpCode::kLiteral)
          Literal(op.literal);
        else
          section_->push_back(std::move(op));
      }
      Literal("\"");
    }
    if (!e->FirstChild()) {
      Markup("/>\n");
    } else {
      bool has_elements = e->FirstChildElement() != nullptr;
      Markup(has_elements ? ">\n" : ">");
      for (const tinyxml2::XMLNode* c = e->FirstChild(); c; c = c->NextSibling()) {
        if (const tinyxml2::XMLElement* ce = c->ToElement()) {
          Element(ce);
        } else if (const tinyxml2::XMLText* t = c->ToText()) {
          const bool blank = TrimSpace(t->Value()).empty();
          if (!markup_ && (blank || !in_row_)) continue;  // plain text: the row's text alone
          if (t->CData()) {
            Markup("<![CDATA[");
            Text(t->Value(), XmlContext::kCData, t->GetLineNum());
            Markup("]]>");
          } else if (!has_elements || !blank) {
            Text(t->Value(), XmlContext::kText, t->GetLineNum());
          }
        }
        // Comments, processing instructions and unknown nodes are dropped.
      }
      Markup("</");
      MarkupText(name);
      Markup(">\n");
    }
    if (repeat) EndRepeat();
    if (each && !markup_) Literal("\n");  // plain text: a line per row
    if (cond) {
      // Ends the op list so the skip lands after the element even when a
      // literal follows and would otherwise be merged into it.
      Op end;
      end.literal.clear();
      section_->push_back(std::move(end));
      (*section_)[if_at].skip_to = section_->size() - 1;
      --if_depth_;
    }
    if (each) {
      in_row_ = false;
      section_ = &p_->tail;
    }
  }

  Template::Plan* p_;
  const std::map<std::string, std::string>& fixed_;
  std::vector<Op>* section_;
  bool seen_each_ = false;
  bool in_row_ = false;
  int if_depth_ = 0;
  int scope_ = 0;  // the repeated element being compiled (Plan::scopes index + 1), or 0
  size_t repeat_at_ = 0;
  const bool markup_;  // false for plain text: only the row's text, a line per row
};

void ApplyFilters(const std::vector<FilterFn>& filters, const TimeZone& zone, std::string_view in, std::string& a,
                  std::string& b, std::string_view* result) {
  if (filters.empty()) {
    *result = in;
    return;
  }
  std::string_view cur = in;
  std::string* out = &a;
  for (FilterFn f : filters) {
    out->clear();
    f(cur, *out, zone);
    cur = *out;
    out = (out == &a) ? &b : &a;
  }
  *result = cur;
}

// ApplyFilters' windows-1251 way; false when a filter gives up on it.
bool ApplyCp1251Filters(const std::vector<Cp1251FilterFn>& filters, const TimeZone& zone, std::string_view in,
                        std::string& a, std::string& b, std::string_view* result) {
  std::string_view cur = in;
  std::string* out = &a;
  for (Cp1251FilterFn f : filters) {
    out->clear();
    if (!f(cur, *out, zone)) return false;
    cur = *out;
    out = (out == &a) ? &b : &a;
  }
  *result = cur;
  return true;
}

}  // namespace

Template::Template(std::unique_ptr<Plan> plan) : plan_(std::move(plan)) {}
Template::Template(Template&&) noexcept = default;
Template& Template::operator=(Template&&) noexcept = default;
Template::~Template() = default;

Template Template::Parse(std::string_view xml, const std::string& file, Charset cs,
                         const std::map<std::string, std::string>& fixed) {
  return Parse(xml, file, Format::kXml, cs, fixed, TimeZone::Utc());
}

Template Template::Parse(std::string_view xml, const std::string& file, Format format, Charset cs,
                         const std::map<std::string, std::string>& fixed, const TimeZone& zone,
                         const Clock* clock) {
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw ConfigError(file + ":" + std::to_string(doc.ErrorLineNum()) + ": not well-formed XML: " + doc.ErrorName());
  }
  auto plan = std::make_unique<Plan>();
  plan->file = file;
  plan->enc = Encoder::Make(format, cs);
  plan->cp1251_out = format == Format::kXml && cs == Charset::kWindows1251;
  plan->zone = zone;
  if (clock) plan->clock = clock;
  Compiler(plan.get(), fixed).Document(doc);
  return Template(std::move(plan));
}

Template Template::Load(const std::string& file, Charset cs, const std::map<std::string, std::string>& fixed) {
  return Parse(ReadSiteFile(file), file, cs, fixed);
}

Charset Template::charset() const { return plan_->enc->charset(); }
Format Template::format() const { return plan_->enc->format(); }
const std::string& Template::file() const { return plan_->file; }
std::vector<std::string> Template::Fields() const { return plan_->fields; }
const std::vector<std::string>& Template::Children() const { return plan_->children; }

std::vector<std::string> Template::ChildFields(const std::string& child) const {
  std::vector<std::string> out;
  for (const Scope& sc : plan_->scopes) {
    if (sc.split || sc.name != child) continue;
    for (const std::string& f : sc.fields) {
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    }
  }
  return out;
}

void Template::BindChildColumns(const std::string& child, const std::vector<Column>& columns,
                                const std::string& query_file) {
  for (Scope& sc : plan_->scopes) {
    if (sc.split || sc.name != child) continue;
    sc.columns.assign(sc.fields.size(), -1);
    for (size_t i = 0; i < sc.fields.size(); ++i) {
      for (size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].name == sc.fields[i]) sc.columns[i] = static_cast<int>(c);
      }
      if (sc.columns[i] < 0) {
        throw ConfigError(plan_->file + ":" + std::to_string(sc.field_lines[i]) + ": field '" + sc.fields[i] +
                          "' of feed:each=\"" + child + "\" is not a column of " + query_file);
      }
    }
  }
}

bool Template::Writes(std::string_view name) const {
  static const std::pair<std::string_view, DocVar> kNames[] = {{"feed.date", DocVar::kDate},
                                                               {"feed.continue", DocVar::kContinue},
                                                               {"feed.more", DocVar::kMore},
                                                               {"feed.name", DocVar::kName},
                                                               {"feed.updated", DocVar::kUpdated},
                                                               {"feed.empty", DocVar::kEmpty}};
  for (const auto& [n, var] : kNames) {
    if (n != name) continue;
    for (const std::vector<Op>* ops : {&plan_->head, &plan_->row, &plan_->tail}) {
      for (const Op& op : *ops) {
        if (op.code == OpCode::kDocValue && op.doc == var) return true;
      }
    }
  }
  return false;
}

void Template::BindColumns(const std::vector<Column>& columns, const std::string& query_file) {
  plan_->columns.assign(plan_->fields.size(), -1);
  for (size_t i = 0; i < plan_->fields.size(); ++i) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].name == plan_->fields[i]) plan_->columns[i] = static_cast<int>(c);
    }
    if (plan_->columns[i] < 0) {
      throw ConfigError(plan_->file + ":" + std::to_string(plan_->field_lines[i]) + ": field '" + plan_->fields[i] +
                        "' is not a column of " + query_file);
    }
  }
}

namespace {

// The longest text a value writes: libxml2, which PHP, Python's lxml and
// many robots parse with, refuses a text node or CDATA section over
// 10,000,000 bytes (XML_MAX_TEXT_LENGTH); a longer value is cut here, at a
// character boundary, and the cut noted.
constexpr size_t kMaxTextBytes = 8 * 1024 * 1024;

// The feed:key field's value, cleaned, at most 64 bytes, or "".
std::string KeyOf(const Template::Plan& p, const Rows& row) {
  if (p.key_field < 0 || static_cast<size_t>(p.columns[p.key_field]) >= row.size()) return "";
  return CleanUtf8(row.Get(static_cast<size_t>(p.columns[p.key_field])).substr(0, 64));
}

struct Renderer {
  Renderer(const Template::Plan& plan, const Rows* r, const DocumentValues* d, const RowChildren* c = nullptr,
           std::vector<RowRejection>* drop = nullptr)
      : p(plan), row(r), doc(d), children(c), dropped(drop) {}
  const Template::Plan& p;
  const Rows* row;
  const DocumentValues* doc;
  const RowChildren* children = nullptr;
  std::vector<RowRejection>* dropped = nullptr;  // items left out of a repeated element
  const std::vector<std::string_view>* extra = nullptr;  // columns past the row's own (engine values)
  std::string item_key;                                  // the row's feed:key value, for those reports
  // The item a repeated element is at: a child row, or a piece.
  size_t item = 0;
  std::string_view piece;
  // Why Run failed: the encoder refused a value, or a repeated element kept
  // fewer than its feed:min items.
  const Scope* too_few = nullptr;
  size_t too_few_kept = 0;

  // feed:past: now, as the site's DATETIME and as "@SECONDS" (set when
  // the plan has past fields; empty: dates as stored).
  std::string_view now_text, now_seconds;
  UnixTime now = 0;

  std::string_view Field(int scope, int field) const {
    if (scope == 0) {
      const size_t c = static_cast<size_t>(p.columns[field]);
      std::string_view v = extra && c >= row->size() ? (*extra)[c - row->size()] : row->Get(c);
      return p.past.empty() || now_text.empty() ? v : NotAfterNow(p.past, field, v);
    }
    const Scope& sc = p.scopes[scope - 1];
    if (sc.split) return piece;
    const std::string_view v = children->Get(static_cast<size_t>(sc.child), item, static_cast<size_t>(sc.columns[field]));
    return sc.past.empty() || now_text.empty() ? v : NotAfterNow(sc.past, field, v);
  }

  static bool IsPast(const std::vector<int>& past, int field) {
    return std::find(past.begin(), past.end(), field) != past.end();
  }

  // A feed:past field's date later than now is now ("@SECONDS" as such,
  // a DATETIME or DATE as a DATETIME).
  std::string_view NotAfterNow(const std::vector<int>& past, int field, std::string_view raw) const {
    const std::string_view v = TrimSpace(raw);
    if (!IsPast(past, field) || !IsDate(v)) return raw;
    if (v[0] == '@') return ParseSeconds(v.substr(1)) > now ? now_seconds : raw;
    return v > now_text.substr(0, v.size()) ? now_text : raw;
  }

  // Reads the plan's clock (its text made again only when the second
  // changed; this thread's, which outlives the renderer).
  void SetNow() {
    thread_local const Template::Plan* plan = nullptr;
    thread_local UnixTime at = 0;
    thread_local std::string text, seconds;
    const UnixTime t = p.clock->Now();
    if (plan != &p || at != t) {
      plan = &p;
      at = t;
      text = FormatSqlDateTime(p.zone.FromUnix(t));
      seconds = "@" + std::to_string(t);
    }
    now = t;
    now_text = text;
    now_seconds = seconds;
  }

  static int64_t ParseSeconds(std::string_view s) {
    int64_t n = 0;
    for (char c : s) {
      if (c < '0' || c > '9') break;
      n = n * 10 + (c - '0');
    }
    return n;
  }

  std::string_view Value(const Op& op, std::string& scratch) const {
    if (op.code == OpCode::kRowValue || (op.code == OpCode::kIf && op.row)) return Field(op.scope, op.field);
    switch (op.doc) {
      case DocVar::kDate:
        return doc->date;
      case DocVar::kContinue:
        return doc->continue_token;
      case DocVar::kMore:
        return doc->more ? std::string_view("1") : std::string_view();
      case DocVar::kName:
        return doc->name;
      case DocVar::kUpdated:
        return doc->updated;
      case DocVar::kEmpty:
        return doc->empty ? std::string_view("1") : std::string_view();
    }
    return scratch;
  }

  bool Run(const std::vector<Op>& ops, std::string& out) { return Run(ops, 0, ops.size(), out); }

  // `v` (a value over kMaxTextBytes) cut there at a character boundary,
  // and the cut noted for the report.
  std::string_view Cut(const Op& op, std::string_view v) const;

  // Runs ops [from, to); false when the encoder refused a value or a
  // repeated element kept too few items (the row is then left out).
  bool Run(const std::vector<Op>& ops, size_t from, size_t to, std::string& out);
  bool Repeat(const std::vector<Op>& ops, size_t at, std::string& out);
};

bool Passes(const Rule& r, std::string_view raw) {
  std::string_view v = TrimSpace(raw);
  switch (r.kind) {
    case RuleKind::kRequired:
      // A visible ASCII character survives cleaning and trimming: the
      // usual case, decided without making the cleaned copy.
      return std::any_of(v.begin(), v.end(), [](char c) { return c > ' ' && c < 0x7F; }) ||
             !TrimSpace(CleanUtf8(v)).empty();
    case RuleKind::kAlnum:
      return std::all_of(v.begin(), v.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
      });
    case RuleKind::kMaxLen:
      return CountChars(v) <= r.n;
    case RuleKind::kUrl:
      return IsAbsoluteHttpUrl(v, r.n);
    case RuleKind::kFileType:
      return IsKnownBaiduFileType(v);
    case RuleKind::kDate:
      return IsDate(v);
  }
  return true;
}

// The value as a report shows it: cleaned, at most 64 characters.
std::string Shown(std::string_view v) {
  std::string clean = CleanUtf8(v.substr(0, 256));
  size_t cut = 0, chars = 0;
  while (cut < clean.size() && chars < 64) {
    ++chars;
    ++cut;
    while (cut < clean.size() && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80) ++cut;
  }
  return clean.substr(0, cut);
}

std::string_view Renderer::Cut(const Op& op, std::string_view v) const {
  const std::string_view kept = Utf8Prefix(v, kMaxTextBytes);
  if (dropped && op.code == OpCode::kRowValue) {
    const std::string name = op.scope == 0 ? p.fields[op.field]
                                           : p.scopes[op.scope - 1].name + "." + p.scopes[op.scope - 1].fields[op.field];
    dropped->push_back({name, Shown(v),
                      "maxbytes=" + std::to_string(kMaxTextBytes) + " (cut there from " + std::to_string(v.size()) +
                          " bytes: an XML parser takes at most 10 MB of text in one element)",
                      KeyOf(p, *row), true});
  }
  return kept;
}

bool Renderer::Run(const std::vector<Op>& ops, size_t from, size_t to, std::string& out) {
  thread_local std::string a, b, scratch;
  for (size_t i = from; i < to; ++i) {
    const Op& op = ops[i];
    switch (op.code) {
      case OpCode::kLiteral:
        out.append(op.literal);
        break;
      case OpCode::kIf: {
        std::string_view v;
        ApplyFilters(op.filters, p.zone, Value(op, scratch), a, b, &v);
        bool has = !TrimSpace(v).empty();
        if (has == op.negate) i = op.skip_to - 1;  // the loop's ++i lands on skip_to
        break;
      }
      case OpCode::kRowValue:
        if (op.Cp1251Way() && p.cp1251_out && op.scope == 0 && row->cp1251() && !IsPast(p.past, op.field)) {
          const size_t c = static_cast<size_t>(p.columns[op.field]);
          std::string_view v;
          // A value that might pass kMaxTextBytes once read as UTF-8 (3
          // bytes a character at most) takes the UTF-8 way, which cuts it.
          if (c < row->size() && row->GetCp1251(c).size() <= kMaxTextBytes / 3 &&
              ApplyCp1251Filters(op.cp1251_filters, p.zone, row->GetCp1251(c), a, b, &v)) {
            AppendXmlCp1251(out, v, op.ctx);
            break;
          }
        }
        [[fallthrough]];  // the UTF-8 way
      case OpCode::kDocValue: {
        std::string_view v;
        ApplyFilters(op.filters, p.zone, Value(op, scratch), a, b, &v);
        if (v.size() > kMaxTextBytes) v = Cut(op, v);
        if (!p.enc->Value(out, v, op.ctx)) return false;
        break;
      }
      case OpCode::kRepeat:
        if (!Repeat(ops, i, out)) return false;
        i = op.skip_to - 1;
        break;
    }
  }
  return true;
}

// The body of a repeated element once per item that passes its rules; an
// item that breaks one is left out and reported.
bool Renderer::Repeat(const std::vector<Op>& ops, size_t at, std::string& out) {
  const Op& op = ops[at];
  const Scope& sc = p.scopes[op.scope - 1];
  std::vector<std::string_view> pieces;
  size_t n = 0;
  if (sc.split) {
    pieces = SplitList(row->Get(static_cast<size_t>(p.columns[sc.split_field])), sc.separators);
    n = pieces.size();
  } else if (children) {
    n = children->Count(static_cast<size_t>(sc.child));
  }
  size_t kept = 0;
  for (size_t k = 0; k < n; ++k) {
    item = k;
    if (sc.split) piece = pieces[k];
    bool ok = true;
    for (const Rule& r : sc.rules) {
      std::string_view v = Field(op.scope, r.field);
      if (!Passes(r, v)) {
        if (dropped) dropped->push_back({sc.name + "." + sc.fields[r.field], Shown(v), r.text, item_key});
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (!Run(ops, at + 1, op.skip_to, out)) return false;
    ++kept;
  }
  if (kept < sc.min) {
    too_few = &sc;
    too_few_kept = kept;
    return false;
  }
  return true;
}

}  // namespace

void Template::RenderHead(std::string& out, const DocumentValues& doc) const {
  plan_->enc->Declaration(out);
  Renderer(*plan_, nullptr, &doc).Run(plan_->head, out);
}

std::string Template::KeyOf(const Rows& row) const { return feed::KeyOf(*plan_, row); }

bool Template::RenderRow(std::string& out, const Rows& row, RowRejection* why) const {
  return Render(out, row, nullptr, nullptr, why, nullptr);
}

bool Template::RenderRow(std::string& out, const Rows& row, const RowChildren* children, RowRejection* why,
                         std::vector<RowRejection>* dropped) const {
  return Render(out, row, nullptr, children, why, dropped);
}

bool Template::RenderRow(std::string& out, const Rows& row, const std::vector<std::string_view>& extra,
                         RowRejection* why, bool dates_as_stored) const {
  return Render(out, row, &extra, nullptr, why, nullptr, dates_as_stored);
}

bool Template::Render(std::string& out, const Rows& row, const std::vector<std::string_view>* extra,
                      const RowChildren* children, RowRejection* why, std::vector<RowRejection>* dropped,
                      bool dates_as_stored) const {
  auto value = [&](int field) {
    const size_t c = static_cast<size_t>(plan_->columns[field]);
    return extra && c >= row.size() ? (*extra)[c - row.size()] : row.Get(c);
  };
  for (const Rule& r : plan_->rules) {
    std::string_view v = value(r.field);
    if (!Passes(r, v)) {
      if (why) *why = {plan_->fields[r.field], Shown(v), r.text, KeyOf(row)};
      return false;
    }
  }
  const size_t mark = out.size();
  const size_t dropped_mark = dropped ? dropped->size() : 0;
  Renderer r(*plan_, &row, nullptr, children, dropped);
  r.extra = extra;
  if (plan_->has_past && !dates_as_stored) r.SetNow();
  if (dropped && !plan_->scopes.empty()) r.item_key = KeyOf(row);
  if (dropped) {
    for (const Rule& n : plan_->notes) {
      std::string_view v = value(n.field);
      if (!Passes(n, v)) dropped->push_back({plan_->fields[n.field], Shown(v), n.text, KeyOf(row), true});
    }
  }
  if (!r.Run(plan_->row, out)) {
    out.resize(mark);
    if (dropped) dropped->resize(dropped_mark);  // the row is reported instead
    if (why) {
      if (r.too_few) {
        *why = {"", "",
                "feed:min=" + std::to_string(r.too_few->min) + ": " + std::to_string(r.too_few_kept) + " items of " +
                    r.too_few->name + " kept",
                KeyOf(row)};
      } else {
        *why = {"", "", "a line break, which a line of plain text cannot hold", KeyOf(row)};
      }
    }
    return false;
  }
  return true;
}

void Template::RenderTail(std::string& out, const DocumentValues& doc) const {
  Renderer(*plan_, nullptr, &doc).Run(plan_->tail, out);
}

}  // namespace feed
