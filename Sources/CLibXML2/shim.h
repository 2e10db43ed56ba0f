#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so its encoding header pulls in the system ICU headers, whose
// types clash with the ICU module Foundation ships ("UErrorCode has different definitions") in
// any Swift module that sees both. Ferry never uses libxml2's ICU converters or the structure
// fields behind them, so the headers are read without them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
