/// Follows an XML document one code unit at a time, far enough to say whether a unit is
/// character data of the root element, text of a CDATA section, or anything else (markup, and
/// what lies outside the root element).
///
/// Markup is a tag `<…>` (quoted attribute values may hold `>`), a comment, a processing
/// instruction (the XML declaration is one), a CDATA section's delimiters, and a `<!DOCTYPE …>`
/// with its internal subset (its declarations, quoted literals, comments and processing
/// instructions). Units are compared with ASCII only, so this works on the bytes of UTF-8 and on
/// the 16-bit units of UTF-16 alike: no other character's units are ASCII values. It checks no
/// well-formedness; libxml2 does, on the same bytes.
struct XMLMarkupTracker {
    /// Where a unit is.
    enum Place: Equatable {
        /// Markup, or text outside the root element (the prolog and what follows the root).
        case markup
        /// Character data inside the root element.
        case text
        /// Text of a CDATA section inside the root element.
        case cdata
    }

    private enum Mode {
        /// Between markup: character data, or whitespace outside the root element.
        case content
        /// After `<`.
        case open
        /// In a start tag; `slash` when the last unit outside quotes was `/` (an empty element).
        case startTag(quote: UInt16?, slash: Bool)
        case endTag
        /// After `<!`.
        case bang
        /// After `<!-`.
        case bangDash
        /// After `<!` and the first `matched` units of `[CDATA[`.
        case cdataOpening(matched: Int)
        /// `dashes`: how many `-` (up to 2) just passed.
        case comment(dashes: Int)
        case instruction(afterQuestionMark: Bool)
        /// `brackets`: how many `]` (up to 2) just passed.
        case cdata(brackets: Int)
        /// A `<!DOCTYPE` or a declaration of its internal subset.
        case declaration(quote: UInt16?)
        /// Between the declarations of a DOCTYPE's internal subset.
        case subset
    }

    private static let cdataOpening = Array("[CDATA[".utf16)

    private var mode = Mode.content
    /// Open elements.
    private var depth = 0
    private var inSubset = false

    /// Passes one code unit; returns where it is. A unit of text, most of a document, takes one test.
    @inline(__always)
    mutating func pass(_ unit: UInt16) -> Place {
        if case .content = mode, unit != Self.lessThan { return depth > 0 ? .text : .markup }
        return passMarkup(unit)
    }

    /// `pass` for a unit that starts or continues markup.
    private mutating func passMarkup(_ unit: UInt16) -> Place {
        switch mode {
        case .content:
            mode = .open
        case .open:
            switch unit {
            case Self.exclamationMark: mode = .bang
            case Self.questionMark: mode = .instruction(afterQuestionMark: false)
            case Self.slash where !inSubset: mode = .endTag
            default:
                mode = inSubset ? .declaration(quote: nil) : .startTag(quote: nil, slash: false)
                return passMarkup(unit)
            }
        case .startTag(let quote, let slash):
            if let quote {
                if unit == quote { mode = .startTag(quote: nil, slash: false) }
            } else if unit == Self.doubleQuote || unit == Self.singleQuote {
                mode = .startTag(quote: unit, slash: false)
            } else if unit == Self.greaterThan {
                if !slash { depth += 1 }
                mode = .content
            } else {
                mode = .startTag(quote: nil, slash: unit == Self.slash)
            }
        case .endTag:
            if unit == Self.greaterThan {
                depth = max(0, depth - 1)
                mode = .content
            }
        case .bang:
            if unit == Self.dash {
                mode = .bangDash
            } else if unit == Self.cdataOpening[0] {
                mode = .cdataOpening(matched: 1)
            } else {
                mode = .declaration(quote: nil)
                return passMarkup(unit)
            }
        case .bangDash:
            guard unit == Self.dash else {
                mode = .declaration(quote: nil)
                return passMarkup(unit)
            }
            mode = .comment(dashes: 0)
        case .cdataOpening(let matched):
            guard unit == Self.cdataOpening[matched] else {
                mode = .declaration(quote: nil)
                return passMarkup(unit)
            }
            mode = matched + 1 == Self.cdataOpening.count ? .cdata(brackets: 0) : .cdataOpening(matched: matched + 1)
        case .comment(let dashes):
            if unit == Self.greaterThan && dashes == 2 {
                endMarkup()
            } else {
                mode = .comment(dashes: unit == Self.dash ? min(dashes + 1, 2) : 0)
            }
        case .instruction(let afterQuestionMark):
            if unit == Self.greaterThan && afterQuestionMark {
                endMarkup()
            } else {
                mode = .instruction(afterQuestionMark: unit == Self.questionMark)
            }
        case .cdata(let brackets):
            if unit == Self.greaterThan && brackets == 2 {
                mode = .content
                return .markup
            }
            mode = .cdata(brackets: unit == Self.closingBracket ? min(brackets + 1, 2) : 0)
            return depth > 0 ? .cdata : .markup
        case .declaration(let quote):
            if let quote {
                if unit == quote { mode = .declaration(quote: nil) }
            } else if unit == Self.doubleQuote || unit == Self.singleQuote {
                mode = .declaration(quote: unit)
            } else if unit == Self.openingBracket && !inSubset {
                inSubset = true
                mode = .subset
            } else if unit == Self.greaterThan {
                endMarkup()
            }
        case .subset:
            if unit == Self.lessThan {
                mode = .open
            } else if unit == Self.closingBracket {
                inSubset = false
                mode = .declaration(quote: nil)
            }
        }
        return .markup
    }

    /// After a comment, processing instruction or declaration: back to where it started.
    private mutating func endMarkup() {
        mode = inSubset ? .subset : .content
    }

    // ASCII values, as literals so that they fold into the comparisons.
    private static let lessThan: UInt16 = 0x3C
    private static let greaterThan: UInt16 = 0x3E
    private static let exclamationMark: UInt16 = 0x21
    private static let questionMark: UInt16 = 0x3F
    private static let slash: UInt16 = 0x2F
    private static let dash: UInt16 = 0x2D
    private static let doubleQuote: UInt16 = 0x22
    private static let singleQuote: UInt16 = 0x27
    private static let openingBracket: UInt16 = 0x5B
    private static let closingBracket: UInt16 = 0x5D
}
