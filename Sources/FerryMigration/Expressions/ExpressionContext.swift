import FerryModel

/// What an expression reads while it is evaluated: the attributes of the record being mapped and
/// the variables given at run time (`$zone`).
public protocol ExpressionContext {
    /// The value of an attribute of the source record, or nil when the record has no such attribute
    /// (a NULL value is `.null`, not nil).
    func value(of attribute: String) -> AttributeValue?
    /// The text of a run-time variable (without its `$`), or nil when it was not given.
    func variable(_ name: String) -> String?
    /// The text of `$`, the current part of a made record's `for $ in split(…)`, or nil outside one.
    var currentPart: String? { get }
}

extension ExpressionContext {
    /// Outside `for $ in split(…)` there is no current part.
    public var currentPart: String? { nil }
}
