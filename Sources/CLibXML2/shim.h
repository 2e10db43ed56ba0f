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

// libxml2 prints a few messages through its generic error handler, a C variadic function that
// Swift cannot define ("xmlParseChunk: encoder error"): this one drops them. Ferry reads every
// error back from its parser and reports it in its own words.
static void ferry_xml_drop_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

// The thread's generic error handler and its context, to put back after a libxml2 call.
static inline xmlGenericErrorFunc ferry_xml_generic_error_handler(void) { return *__xmlGenericError(); }
static inline void *ferry_xml_generic_error_context(void) { return *__xmlGenericErrorContext(); }
static inline xmlGenericErrorFunc ferry_xml_drop_generic_error_handler(void) { return ferry_xml_drop_generic_error; }
