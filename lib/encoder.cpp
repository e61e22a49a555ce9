#include "encoder.h"

namespace feed {
namespace {

class XmlEncoder : public Encoder {
 public:
  explicit XmlEncoder(Charset cs) : cs_(cs) {}
  Format format() const override { return Format::kXml; }
  Charset charset() const override { return cs_; }
  void Declaration(std::string& out) const override {
    out += "<?xml version=\"1.0\" encoding=\"";
    out += CharsetName(cs_);
    out += "\"?>\n";
  }
  void Literal(std::string& out, std::string_view utf8, XmlContext ctx) const override {
    AppendXml(out, utf8, ctx, cs_);
  }
  bool Value(std::string& out, std::string_view utf8, XmlContext ctx) const override {
    AppendXml(out, utf8, ctx, cs_);
    return true;
  }

 private:
  Charset cs_;
};

class TextEncoder : public Encoder {
 public:
  Format format() const override { return Format::kText; }
  Charset charset() const override { return Charset::kUtf8; }
  void Declaration(std::string&) const override {}
  void Literal(std::string& out, std::string_view utf8, XmlContext) const override { out += CleanUtf8(utf8); }
  bool Value(std::string& out, std::string_view utf8, XmlContext) const override {
    if (utf8.find_first_of("\r\n") != std::string_view::npos) return false;
    out += CleanUtf8(utf8);
    return true;
  }
};

}  // namespace

std::unique_ptr<Encoder> Encoder::Make(Format format, Charset cs) {
  if (format == Format::kText) return std::make_unique<TextEncoder>();
  return std::make_unique<XmlEncoder>(cs);
}

}  // namespace feed
