// The rules of the formats that have no schema, as data: for each, its root
// element, the element that holds one item, and what each field of an item
// must be (present and not blank, an absolute http(s) URL, unique across
// the document, a date of the format's forms, in CDATA).
// `check` applies them to its sample of every feed (format_rules.h); adding
// a format is a row of the table in item_rules.cpp.
//
// A document is taken for a format when its root element is the format's
// and its first item holds the format's marker element (Careerjet's and
// Jooble's roots are both <jobs>: Careerjet's jobs have a <url>). A document
// of no listed format has no item rules.
#pragma once

#include <libxml/tree.h>

#include <vector>

#include "format_rules.h"

namespace feed {

// The faults of the items under `root` (a parsed document), the first one
// of each field and rule, so that a mistake every item repeats is told once.
void CheckItemRules(const xmlNode* root, std::vector<FormatFault>* faults);

}  // namespace feed
