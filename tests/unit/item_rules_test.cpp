// item_rules, through CheckXmlDocument as `check` runs it: job feeds written
// here by hand, a good one and then one per rule broken, each with the fault
// the format's statement expects (docs/formats/indeed.md, careerjet.md).
#include "item_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "format_rules.h"

namespace feed {
namespace {

std::string All(const std::vector<FormatFault>& faults) {
  std::string s;
  for (const FormatFault& f : faults) s += std::to_string(f.line) + " <" + f.element + "> " + f.what + "\n";
  return s;
}

const char kDecl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

struct IndeedJob {
  std::string title = "<![CDATA[Маркетолог]]>";
  std::string date = "<![CDATA[2026-11-30T10:00:00Z]]>";
  std::string ref = "<![CDATA[17]]>";
  std::string url = "<![CDATA[https://doska.example/job/17.html]]>";
  std::string company = "<![CDATA[ООО Ромашка]]>";
  std::string city = "<![CDATA[Київ]]>";
  std::string country = "<![CDATA[UA]]>";
  std::string description = "<![CDATA[Обязанности: работа с клиентами]]>";
  std::string Xml() const {
    std::string s = "<job>\n";
    auto add = [&](const char* name, const std::string& v) {
      if (v != "-") s += std::string("<") + name + ">" + v + "</" + name + ">\n";
    };
    add("title", title), add("date", date), add("referencenumber", ref), add("url", url);
    add("company", company), add("city", city), add("country", country), add("description", description);
    return s + "</job>\n";
  }
};

std::string Indeed(const std::vector<IndeedJob>& jobs) {
  std::string s = std::string(kDecl) + "<source>\n<publisher>Доска</publisher>\n";
  for (const IndeedJob& j : jobs) s += j.Xml();
  return s + "</source>\n";
}

TEST(ItemRules, AnIndeedFeedThatKeepsTheRulesHasNoFault) {
  IndeedJob rfc822;
  rfc822.ref = "<![CDATA[18]]>";
  rfc822.date = "<![CDATA[Fri, 19 Dec 2014 22:49:39 GMT]]>";
  EXPECT_EQ(All(CheckXmlDocument(Indeed({IndeedJob{}, rfc822}), "UTF-8")), "");
  EXPECT_EQ(All(CheckXmlDocument(std::string(kDecl) + "<source>\n</source>\n", "UTF-8")), "") << "no jobs, no fault";
}

// Each rule of Indeed's, broken in the second job: the fault names the
// element, the rule, and the job's line.
TEST(ItemRules, EachIndeedRuleBrokenIsAFaultAtItsJob) {
  struct Case {
    const char* what;
    void (*spoil)(IndeedJob&);
    const char* expected;
  };
  const Case cases[] = {
      {"no company", [](IndeedJob& j) { j.company = "-"; }, "Indeed: <job> <company> missing; the format requires it"},
      {"empty city", [](IndeedJob& j) { j.city = "<![CDATA[ ]]>"; }, "<city> empty; the format requires a value"},
      {"title as text", [](IndeedJob& j) { j.title = "Маркетолог"; }, "<title> not in CDATA"},
      {"relative url", [](IndeedJob& j) { j.url = "<![CDATA[/job/18.html]]>"; }, "'/job/18.html' is not an absolute"},
      {"ref twice", [](IndeedJob& j) { j.ref = "<![CDATA[17]]>"; }, "<referencenumber> '17' is not unique"},
      {"a date of no form", [](IndeedJob& j) { j.date = "<![CDATA[30.11.2026]]>"; },
       "'30.11.2026' is not an ISO 8601 or RFC 822 date"},
      {"no description", [](IndeedJob& j) { j.description = "-"; }, "<description> missing"},
  };
  for (const Case& c : cases) {
    IndeedJob second;
    second.ref = "<![CDATA[18]]>";
    c.spoil(second);
    const std::string faults = All(CheckXmlDocument(Indeed({IndeedJob{}, second}), "UTF-8"));
    EXPECT_NE(faults.find(c.expected), std::string::npos) << c.what << ":\n" << faults;
    EXPECT_EQ(faults.rfind("14 <", 0), 0u) << c.what << ": the second job's line (14)\n" << faults;
  }
}

TEST(ItemRules, AFaultEveryJobRepeatsIsToldOnce) {
  IndeedJob a, b;
  a.company = b.company = "-";
  b.ref = "<![CDATA[18]]>";
  const std::vector<FormatFault> faults = CheckXmlDocument(Indeed({a, b}), "UTF-8");
  ASSERT_EQ(faults.size(), 1u) << All(faults);
  EXPECT_EQ(faults[0].element, "company");
}

std::string Careerjet(const std::string& location, const std::string& url = "https://doska.example/job/5.html") {
  return std::string(kDecl) + "<jobs>\n<job>\n<id>5</id>\n<title>Маркетолог</title>\n<url>" + url + "</url>\n" +
         location + "<description>Работа с клиентами</description>\n</job>\n</jobs>\n";
}

TEST(ItemRules, CareerjetNeedsTheJobsCityAndAnAbsoluteUrl) {
  EXPECT_EQ(All(CheckXmlDocument(Careerjet("<location><city>Київ</city><country>Ukraine</country></location>\n"),
                                 "UTF-8")),
            "");
  EXPECT_NE(All(CheckXmlDocument(Careerjet("<location><country>Ukraine</country></location>\n"), "UTF-8"))
                .find("Careerjet: <job> <location/city> missing"),
            std::string::npos);
  EXPECT_NE(All(CheckXmlDocument(Careerjet("<location><city>Київ</city></location>\n", "doska.example/job/5"), "UTF-8"))
                .find("<url> 'doska.example/job/5' is not an absolute http(s) URL"),
            std::string::npos);
}

// Jooble's root is <jobs> too; its jobs carry the id as an attribute and
// have no <url>: Careerjet's rules are not Jooble's.
TEST(ItemRules, AJoobleFeedIsNotHeldToCareerjetsRules) {
  const std::string jooble = std::string(kDecl) +
                             "<jobs>\n<job id=\"5\">\n<link>https://doska.example/job/5.html</link>\n"
                             "<name>Маркетолог</name>\n<contacts>050</contacts>\n</job>\n</jobs>\n";
  EXPECT_EQ(All(CheckXmlDocument(jooble, "UTF-8")), "");
}

}  // namespace
}  // namespace feed
