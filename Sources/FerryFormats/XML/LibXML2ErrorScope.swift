import CLibXML2

/// Catches, on this thread and for the duration of a libxml2 call, the errors libxml2 raises
/// outside a parser's own handlers: failures converting the input's encoding, I/O errors, and
/// the few messages it prints directly ("xmlParseChunk: encoder error").
///
/// libxml2 reports those through the thread's global handlers (structured and generic), which
/// print on standard error by default ("encoding error : input conversion failed…"). The
/// structured one gets `handler`, the generic one a C function that drops the message (Swift
/// cannot write a variadic one; `shim.h`). Every caller already reads its errors
/// back from the parser, or records them with `handler`, and reports them as Ferry's own
/// message, so inside the scope nothing of libxml2's reaches standard error. Scopes nest: the
/// handler in place before is put back.
enum LibXML2ErrorScope {
    /// Runs `body` with `handler` (called with `context`) as the thread's structured error
    /// handler; by default errors are dropped.
    static func run<T, Failure: Error>(context: UnsafeMutableRawPointer? = nil, handler: @escaping xmlStructuredErrorFunc = dropError,
                                       _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let structured = (handler: __xmlStructuredError().pointee, context: __xmlStructuredErrorContext().pointee)
        let generic = (handler: ferry_xml_generic_error_handler(), context: ferry_xml_generic_error_context())
        xmlSetStructuredErrorFunc(context, handler)
        xmlSetGenericErrorFunc(nil, ferry_xml_drop_generic_error_handler())
        defer {
            xmlSetStructuredErrorFunc(structured.context, structured.handler)
            xmlSetGenericErrorFunc(generic.context, generic.handler)
        }
        return try body()
    }

    /// Drops an error the caller reads back from the parser.
    static let dropError: xmlStructuredErrorFunc = { _, _ in }
}
