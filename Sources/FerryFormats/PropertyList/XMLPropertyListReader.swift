import CLibXML2

/// Reads XML property lists (Apple's `PropertyList-1.0.dtd` format) through libxml2.
///
/// Parsing is safe for untrusted input: no network, no DTD loading, no entity substitution, and
/// any document whose DTD declares entities is refused (`XMLPropertyListProblem.entityDeclaration`).
/// Only UTF-8 and UTF-16 documents are accepted. Errors carry libxml2's line number.
///
/// Accepted forms, following Apple's reader: the value inside `<plist>` (or a bare value as the
/// root element); `<integer>` in decimal or `0x` hexadecimal, anywhere in the 128-bit range;
/// `<real>` as a decimal number or `nan`, `inf`, `infinity` with optional sign, any case (a number
/// no `Double` holds, such as `1e400` or `1e-400`, is `PropertyListValue.unrepresentableReal`);
/// `<date>` as `yyyy-MM-ddTHH:mm:ssZ`; `<data>` as base64 with whitespace anywhere.
/// Numbers, dates and data may be surrounded by whitespace; strings and keys are taken literally,
/// carriage returns included, as Apple's reader takes them (libxml2 would read CRLF and CR as LF:
/// see `XMLCarriageReturnEscaper`).
/// Comments and processing instructions are ignored everywhere, also inside `<string>` and `<key>`.
/// Attributes are ignored. In a `<dict>` with a repeated key, the last value wins. A `<dict>`
/// whose only key is `CF$UID` with an `<integer>` value is a UID, as Apple writes UIDs in XML.
public struct XMLPropertyListReader: Sendable {
    /// The deepest nesting of containers that is accepted (libxml2 itself stops at 256 elements).
    public var maxDepth: Int

    public init(maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Decodes a whole XML property list.
    /// - Throws: `PropertyListError.xml` with the line of the problem.
    public func decode(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        let document = try XMLPropertyListDocument(bytes)
        guard let root = xmlDocGetRootElement(document.document) else { throw .xml(.invalidRoot, line: 0) }
        var repeated = RepeatedPropertyListKeys()
        guard Self.name(of: root) == "plist" else { return try value(of: root, depth: 0, repeated: &repeated) }
        let children = try Self.elementChildren(of: root)
        guard children.count == 1 else { throw .xml(.invalidRoot, line: Self.line(of: root)) }
        return try value(of: children[0], depth: 0, repeated: &repeated)
    }

    /// The value of one element (and its children); also used by the streaming reader on the
    /// subtrees it expands. Keys a `<dict>` holds more than once go to `repeated`.
    func value(of element: xmlNodePtr, depth: Int, repeated: inout RepeatedPropertyListKeys) throws(PropertyListError) -> PropertyListValue {
        let name = Self.name(of: element)
        switch name {
        case "string":
            return .string(try Self.text(of: element))
        case "integer":
            let text = try Self.trimmedText(of: element)
            guard let integer = Self.integer(text) else { throw .xml(.invalidInteger(text), line: Self.line(of: element)) }
            return .integer(integer)
        case "real":
            let text = try Self.trimmedText(of: element)
            guard let real = Self.real(text) else { throw .xml(.invalidReal(text), line: Self.line(of: element)) }
            return real
        case "true", "false":
            return .bool(name == "true")
        case "date":
            let text = try Self.trimmedText(of: element)
            guard let seconds = PropertyListDate.parse(text.utf8) else { throw .xml(.invalidDate(text), line: Self.line(of: element)) }
            return .date(seconds)
        case "data":
            guard let bytes = PropertyListBase64.decode(try Self.text(of: element).utf8) else {
                throw .xml(.invalidBase64, line: Self.line(of: element))
            }
            return .data(bytes)
        case "array":
            guard depth < maxDepth else { throw .xml(.nestingTooDeep(limit: maxDepth), line: Self.line(of: element)) }
            var items: [PropertyListValue] = []
            for child in try Self.elementChildren(of: element) {
                items.append(try value(of: child, depth: depth + 1, repeated: &repeated))
            }
            return .array(items)
        case "dict":
            guard depth < maxDepth else { throw .xml(.nestingTooDeep(limit: maxDepth), line: Self.line(of: element)) }
            return try dictionary(element, depth: depth, repeated: &repeated)
        default:
            throw .xml(.unexpectedElement(name), line: Self.line(of: element))
        }
    }

    private func dictionary(_ element: xmlNodePtr, depth: Int, repeated: inout RepeatedPropertyListKeys) throws(PropertyListError) -> PropertyListValue {
        let children = try Self.elementChildren(of: element)
        guard children.count % 2 == 0 else {
            throw .xml(.invalidDictionary("a <key> without a value"), line: Self.line(of: children[children.count - 1]))
        }
        var entries: [String: PropertyListValue] = [:]
        entries.reserveCapacity(children.count / 2)
        for index in stride(from: 0, to: children.count, by: 2) {
            let keyElement = children[index]
            guard Self.name(of: keyElement) == "key" else {
                throw .xml(.invalidDictionary("expected <key>, found <\(Self.name(of: keyElement))>"), line: Self.line(of: keyElement))
            }
            let key = try Self.text(of: keyElement)
            if entries.updateValue(try value(of: children[index + 1], depth: depth + 1, repeated: &repeated), forKey: key) != nil {
                repeated.note(key)
            }
        }
        if entries.count == 1, case .integer(let uid)? = entries["CF$UID"], let uid = UInt64(exactly: uid) {
            return .uid(uid)
        }
        return .dictionary(entries)
    }

    // MARK: scalars

    /// Decimal or `0x` hexadecimal, with optional sign.
    static func integer(_ text: String) -> Int128? {
        var digits = Substring(text)
        var sign = ""
        if let first = digits.first, first == "-" || first == "+" {
            sign = String(first)
            digits = digits.dropFirst()
        }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            let hex = digits.dropFirst(2)
            guard hex.first?.isHexDigit == true else { return nil }
            return Int128(sign + hex, radix: 16)
        }
        guard digits.first?.isASCII == true, digits.first?.isNumber == true else { return nil }
        return Int128(sign + digits, radix: 10)
    }

    /// A decimal number, or `nan` / `inf` / `infinity` with optional sign in any case. A number no
    /// `Double` holds (beyond its range, or not zero but rounding to zero) is kept as written.
    static func real(_ text: String) -> PropertyListValue? {
        let lowered = text.lowercased()
        let unsigned = lowered.hasPrefix("-") || lowered.hasPrefix("+") ? String(lowered.dropFirst()) : lowered
        switch unsigned {
        case "nan": return .real(.nan)
        case "inf", "infinity": return .real(lowered.hasPrefix("-") ? -.infinity : .infinity)
        default:
            guard let first = unsigned.first, first.isASCII, first.isNumber || first == "." else { return nil }
            guard let value = Double(text) else { return nil }
            guard value.isFinite, value != 0 || !hasNonzeroDigit(unsigned) else { return .unrepresentableReal(text) }
            return .real(value)
        }
    }

    /// Whether the significand of unsigned, lowercased number text (decimal, or hexadecimal after
    /// `0x`) has a digit other than 0.
    private static func hasNonzeroDigit(_ unsigned: String) -> Bool {
        let isHexadecimal = unsigned.hasPrefix("0x")
        let significand = unsigned.dropFirst(isHexadecimal ? 2 : 0).prefix { $0 != (isHexadecimal ? "p" : "e") }
        return significand.contains { $0 != "0" && (isHexadecimal ? $0.isHexDigit : $0.isWholeNumber) }
    }

    // MARK: tree access

    private static func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    static func line(of node: xmlNodePtr) -> Int {
        Int(xmlGetLineNo(node))
    }

    /// The element children; whitespace text, comments and processing instructions are skipped,
    /// anything else is an error.
    private static func elementChildren(of node: xmlNodePtr) throws(PropertyListError) -> [xmlNodePtr] {
        var elements: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                elements.append(current)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content, !isWhitespace(content) {
                    throw .xml(.unexpectedText, line: line(of: current))
                }
            case XML_ENTITY_REF_NODE:
                throw .xml(.unresolvedEntity(name(of: current)), line: line(of: current))
            default:
                break
            }
            child = current.pointee.next
        }
        return elements
    }

    /// The concatenated text of an element that may hold only text (and comments).
    private static func text(of node: xmlNodePtr) throws(PropertyListError) -> String {
        var text = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    if text.isEmpty { text = String(cString: content) } else { text += String(cString: content) }
                }
            case XML_ENTITY_REF_NODE:
                throw .xml(.unresolvedEntity(name(of: current)), line: line(of: current))
            case XML_ELEMENT_NODE:
                throw .xml(.unexpectedElement(name(of: current)), line: line(of: current))
            default:
                break
            }
            child = current.pointee.next
        }
        return text
    }

    private static func trimmedText(of node: xmlNodePtr) throws(PropertyListError) -> String {
        let text = try text(of: node)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    private static func isWhitespace(_ content: UnsafePointer<xmlChar>) -> Bool {
        var pointer = content
        while pointer.pointee != 0 {
            switch pointer.pointee {
            case 0x20, 0x09, 0x0A, 0x0D: pointer += 1
            default: return false
            }
        }
        return true
    }
}
