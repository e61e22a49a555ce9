#include "template.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ascii.h"
#include "config.h"
#include "error.h"
#include "url.h"

namespace feed {
namespace {

enum class OpCode { kLiteral, kRowValue, kDocValue, kIf };
enum class DocVar { kDate, kContinue, kMore, kName, kUpdated };

struct Op {
  OpCode code = OpCode::kLiteral;
  std::string literal;  // kLiteral: bytes ready to write
  bool row = false;     // kIf: tests a row field (else a document value)
  int field = -1;       // kRowValue, kIf on a row: index into Plan::fields
  DocVar doc = DocVar::kDate;
  std::vector<FilterFn> filters;
  XmlContext ctx = XmlContext::kText;
  bool negate = false;  // kIf: "!name"
  size_t skip_to = 0;   // kIf: where to go when the test fails
};

enum class RuleKind { kRequired, kAlnum, kMaxLen, kUrl };
struct Rule {
  int field;
  RuleKind kind;
  size_t n = 0;
  std::string text;  // as written, for the report
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
  TimeZone zone = TimeZone::Utc();  // for the date filters
  std::vector<Op> head, row, tail;
  std::vector<std::string> fields;  // row fields named, in first-use order
  std::vector<int> field_lines;
  std::vector<int> columns;  // fields[i] -> result column, after BindColumns
  std::vector<Rule> rules;
  int key_field = -1;  // feed:key: names a rejected row
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
    if (cs == Charset::kUtf8) return;
    for (size_t i = 0; i < name.size();) {
      size_t len;
      if (!ToCp1251(*DecodeUtf8(std::string_view(name).substr(i), &len))) {
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
    throw Error(line, "unknown value '" + name +
                          "'; known: feed.date, feed.continue, feed.more, feed.name, feed.updated, site.KEY, "
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
      op.field = FieldIndex(name, line);
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

  void Rules(std::string_view spec, int line) {
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
      r.field = FieldIndex(field, line);
      r.text = rule;
      if (rule == "required")
        r.kind = RuleKind::kRequired;
      else if (rule == "alnum")
        r.kind = RuleKind::kAlnum;
      else if (rule == "url")
        r.kind = RuleKind::kUrl;
      else if (rule.rfind("maxlen=", 0) == 0 && rule.size() > 7 && rule.size() < 14 &&
               rule.find_first_not_of("0123456789", 7) == std::string::npos) {
        r.kind = RuleKind::kMaxLen;
        r.n = std::stoul(rule.substr(7));
      } else {
        throw Error(line, "unknown rule '" + rule + "'; known: required, alnum, maxlen=N, url");
      }
      p_->rules.push_back(r);
    }
  }

  void Element(const tinyxml2::XMLElement* e) {
    int line = e->GetLineNum();
    std::string name = e->Name();
    if (name.rfind("feed:", 0) == 0) throw Error(line, "<" + name + ">: feed: names attributes, not elements");
    CheckMarkupName(name, "element", line);
    const char* each = nullptr;
    const char* cond = nullptr;
    const char* require = nullptr;
    const char* key = nullptr;
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      std::string an = a->Name();
      if (an == "feed:each")
        each = a->Value();
      else if (an == "feed:key")
        key = a->Value();
      else if (an == "feed:if")
        cond = a->Value();
      else if (an == "feed:require")
        require = a->Value();
      else if (an.rfind("feed:", 0) == 0)
        throw Error(line, "unknown directive " + an + "; known: feed:each, feed:if, feed:require, feed:key");
      else
        CheckMarkupName(an, "attribute", a->GetLineNum());
    }
    if (require && !each) throw Error(line, "feed:require belongs on the feed:each element");
    if (key && !each) throw Error(line, "feed:key belongs on the feed:each element");
    if (each) {
      if (std::string(each) != "row") throw Error(line, "feed:each takes \"row\"");
      if (seen_each_) throw Error(line, "a second feed:each element");
      if (cond) throw Error(line, "feed:if and feed:each on one element");
      if (if_depth_ > 0) throw Error(line, "the feed:each element cannot be inside a feed:if element");
      seen_each_ = true;
      in_row_ = true;
      section_ = &p_->row;
      if (require) Rules(require, line);
      if (key) {
        std::string k(TrimSpace(key));
        if (!IsName(k) || k.find('.') != std::string::npos) throw Error(line, "feed:key names a row field");
        p_->key_field = FieldIndex(k, line);
      }
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
      if (!IsName(c)) throw Error(line, "feed:if takes a name or !name");
      if (c.find('.') != std::string::npos) {
        if (in_row_) throw Error(line, "feed:if on " + c + ": feed.* values stand outside the feed:each element");
        op.doc = DocVarOf(c, line);
      } else {
        if (!in_row_) throw Error(line, "feed:if on row field '" + c + "' outside the feed:each element");
        op.row = true;
        op.field = FieldIndex(c, line);
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
                         const std::map<std::string, std::string>& fixed, const TimeZone& zone) {
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw ConfigError(file + ":" + std::to_string(doc.ErrorLineNum()) + ": not well-formed XML: " + doc.ErrorName());
  }
  auto plan = std::make_unique<Plan>();
  plan->file = file;
  plan->enc = Encoder::Make(format, cs);
  plan->zone = zone;
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

bool Template::Writes(std::string_view name) const {
  static const std::pair<std::string_view, DocVar> kNames[] = {{"feed.date", DocVar::kDate},
                                                               {"feed.continue", DocVar::kContinue},
                                                               {"feed.more", DocVar::kMore},
                                                               {"feed.name", DocVar::kName},
                                                               {"feed.updated", DocVar::kUpdated}};
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

struct Renderer {
  const Template::Plan& p;
  const Rows* row;
  const DocumentValues* doc;
  const std::vector<std::string_view>* extra = nullptr;  // columns past the row's own

  std::string_view Value(const Op& op, std::string& scratch) const {
    if (op.code == OpCode::kRowValue || (op.code == OpCode::kIf && op.row)) {
      const size_t c = static_cast<size_t>(p.columns[op.field]);
      return extra && c >= row->size() ? (*extra)[c - row->size()] : row->Get(c);
    }
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
    }
    return scratch;
  }

  // False when the encoder refused a value (the row is then left out).
  bool Run(const std::vector<Op>& ops, std::string& out) const {
    thread_local std::string a, b, scratch;
    for (size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      switch (op.code) {
        case OpCode::kLiteral:
          out.append(op.literal);
          break;
        case OpCode::kIf: {
          bool has = !TrimSpace(Value(op, scratch)).empty();
          if (has == op.negate) i = op.skip_to - 1;  // the loop's ++i lands on skip_to
          break;
        }
        case OpCode::kRowValue:
        case OpCode::kDocValue: {
          std::string_view v;
          ApplyFilters(op.filters, p.zone, Value(op, scratch), a, b, &v);
          if (!p.enc->Value(out, v, op.ctx)) return false;
          break;
        }
      }
    }
    return true;
  }
};

bool Passes(const Rule& r, std::string_view raw) {
  std::string_view v = TrimSpace(raw);
  switch (r.kind) {
    case RuleKind::kRequired:
      return !TrimSpace(CleanUtf8(v)).empty();
    case RuleKind::kAlnum:
      return std::all_of(v.begin(), v.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
      });
    case RuleKind::kMaxLen:
      return CountChars(v) <= r.n;
    case RuleKind::kUrl:
      return IsAbsoluteHttpUrl(v);
  }
  return true;
}

}  // namespace

void Template::RenderHead(std::string& out, const DocumentValues& doc) const {
  plan_->enc->Declaration(out);
  Renderer{*plan_, nullptr, &doc}.Run(plan_->head, out);
}

std::string Template::KeyOf(const Rows& row) const {
  if (plan_->key_field < 0 || static_cast<size_t>(plan_->columns[plan_->key_field]) >= row.size()) return "";
  return CleanUtf8(row.Get(static_cast<size_t>(plan_->columns[plan_->key_field])).substr(0, 64));
}

bool Template::RenderRow(std::string& out, const Rows& row, RowRejection* why) const {
  return RenderRow(out, row, {}, why);
}

bool Template::RenderRow(std::string& out, const Rows& row, const std::vector<std::string_view>& extra,
                         RowRejection* why) const {
  for (const Rule& r : plan_->rules) {
    const size_t c = static_cast<size_t>(plan_->columns[r.field]);
    std::string_view v = c >= row.size() ? extra[c - row.size()] : row.Get(c);
    if (!Passes(r, v)) {
      if (why) {
        std::string clean = CleanUtf8(v.substr(0, 256));
        size_t cut = 0, chars = 0;
        while (cut < clean.size() && chars < 64) {
          ++chars;
          ++cut;
          while (cut < clean.size() && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80) ++cut;
        }
        *why = {plan_->fields[r.field], clean.substr(0, cut), r.text, KeyOf(row)};
      }
      return false;
    }
  }
  const size_t mark = out.size();
  if (!Renderer{*plan_, &row, nullptr, &extra}.Run(plan_->row, out)) {
    out.resize(mark);
    if (why) *why = {"", "", "a line break, which a line of plain text cannot hold", KeyOf(row)};
    return false;
  }
  return true;
}

void Template::RenderTail(std::string& out, const DocumentValues& doc) const {
  Renderer{*plan_, nullptr, &doc}.Run(plan_->tail, out);
}

}  // namespace feed
