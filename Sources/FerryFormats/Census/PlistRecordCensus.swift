/// Counts the records of a property list by its structure alone, for `CensusTap`: the elements
/// of a root array, else one record for any other root value.
///
/// - **XML**: tags are followed by their angle brackets (comments, processing instructions,
///   CDATA sections, the DOCTYPE and quoted attribute values passed over); the root value is the
///   element inside `<plist>`, or the first element when there is no `<plist>`, and the elements
///   one level inside a root `<array>` are counted.
/// - **Binary** (`bplist0…`): the root object is found through the trailer and the offset
///   table, and an array's length is read from its marker. No other object is decoded.
public struct PlistRecordCensus: RecordCensus {
    private var kind = Kind.undecided
    /// The file's first bytes until its kind is known, then all of a binary plist's.
    private var bytes: [UInt8] = []
    private var xml = XMLElementCount()

    private enum Kind { case undecided, xml, binary }

    public init() {}

    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanUnits(bytes)
    }

    public mutating func scan(_ units: UnsafeBufferPointer<UInt16>) {
        scanUnits(units)
    }

    /// One loop for both widths, specialized for each.
    private mutating func scanUnits<Unit: FixedWidthInteger & UnsignedInteger>(_ units: UnsafeBufferPointer<Unit>) {
        switch kind {
        case .xml:
            for unit in units { xml.step(UInt16(unit)) }
        case .binary:
            bytes += units.lazy.map { UInt8(truncatingIfNeeded: $0) }
        case .undecided:
            guard Unit.bitWidth == 8 else {
                kind = .xml
                scanUnits(units)
                return
            }
            bytes += units.lazy.map { UInt8(truncatingIfNeeded: $0) }
            if bytes.count >= 6 { decide() }
        }
    }

    private mutating func decide() {
        if bytes.starts(with: Array("bplist".utf8)) {
            kind = .binary
        } else {
            kind = .xml
            for byte in bytes { xml.step(UInt16(byte)) }
            bytes = []
        }
    }

    public mutating func finish() -> CensusOutcome {
        if kind == .undecided { decide() }
        switch kind {
        case .binary: return BinaryPlistRoot.elementCount(of: bytes)
        case .xml, .undecided: return xml.outcome
        }
    }
}

/// The root of a binary property list, read from its trailer: the 32 last bytes give the width
/// of offsets, the number of objects, the root's number and where the offset table starts.
enum BinaryPlistRoot {
    static func elementCount(of bytes: [UInt8]) -> CensusOutcome {
        guard bytes.count >= 8 + 32 else { return .malformed("the binary property list is shorter than its header and trailer") }
        let trailer = bytes.count - 32
        let offsetWidth = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetWidth),
              let objects = integer(bytes, at: trailer + 8, width: 8), let root = integer(bytes, at: trailer + 16, width: 8),
              let table = integer(bytes, at: trailer + 24, width: 8), root < objects, table < trailer,
              objects <= (trailer - table) / offsetWidth,
              let offset = integer(bytes, at: table + root * offsetWidth, width: offsetWidth), offset >= 8, offset < table
        else { return .malformed("the trailer of the binary property list does not lead to its root object") }
        let marker = bytes[offset]
        guard marker >> 4 == 0xA else { return .counted(records: 1, skippedLines: 0) }
        guard marker & 0x0F == 0x0F else { return .counted(records: Int(marker & 0x0F), skippedLines: 0) }
        guard offset + 1 < table, bytes[offset + 1] >> 4 == 0x1, bytes[offset + 1] & 0x0F <= 3,
              let count = integer(bytes, at: offset + 2, width: 1 << Int(bytes[offset + 1] & 0x0F)), count <= table
        else { return .malformed("the length of the root array of the binary property list cannot be read") }
        return .counted(records: count, skippedLines: 0)
    }

    /// A big-endian unsigned integer of `width` bytes at `at`, nil past the end or above `Int.max`.
    private static func integer(_ bytes: [UInt8], at: Int, width: Int) -> Int? {
        guard at >= 0, at + width <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[at..<at + width] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}

/// Follows the tags of an XML property list by their angle brackets and counts the elements one
/// level inside a root array.
struct XMLElementCount {
    private var state = State.text
    private var depth = 0
    /// The first letters of the tag being read, enough to tell `plist` and `array`.
    private var name: [UInt16] = []
    private var isEndTag = false
    private var quote: UInt16?
    /// The last units read, to find the end of a comment (`-->`), a processing instruction
    /// (`?>`) or a CDATA section (`]]>`).
    private var last: (UInt16, UInt16) = (0, 0)
    private var bracketDepth = 0
    private var insidePlist = false
    /// The depth of the root value once its start tag was read, and whether it is an array.
    private var rootDepth: Int?
    private var rootIsArray = false
    private var rootClosed = false
    private var elements = 0

    private enum State { case text, lessThan, bang, bangDash, tagName, tag, slashInTag, comment, processingInstruction, cdata, declaration }

    private static let lessThan: UInt16 = 0x3C, greaterThan: UInt16 = 0x3E, slash: UInt16 = 0x2F

    var outcome: CensusOutcome {
        guard rootDepth != nil else { return .malformed("no root value in the property list") }
        return .counted(records: rootIsArray ? elements : 1, skippedLines: 0)
    }

    mutating func step(_ unit: UInt16) {
        advance(unit)
        last = (last.1, unit)
    }

    private mutating func advance(_ unit: UInt16) {
        switch state {
        case .text:
            if unit == Self.lessThan { state = .lessThan }
        case .lessThan:
            name.removeAll(keepingCapacity: true)
            switch unit {
            case 0x21: state = .bang
            case 0x3F: state = .processingInstruction
            case Self.slash: isEndTag = true; state = .tagName
            default: isEndTag = false; name.append(unit); state = .tagName
            }
        case .bang:
            if unit == 0x2D { state = .bangDash } else if unit == 0x5B { state = .cdata } else { bracketDepth = 0; state = .declaration }
        case .bangDash:
            state = unit == 0x2D ? .comment : .declaration
        case .comment:
            if unit == Self.greaterThan, last == (0x2D, 0x2D) { state = .text }
        case .processingInstruction:
            if unit == Self.greaterThan, last.1 == 0x3F { state = .text }
        case .cdata:
            if unit == Self.greaterThan, last == (0x5D, 0x5D) { state = .text }
        case .declaration:
            if let open = quote {
                if unit == open { quote = nil }
            } else if unit == 0x22 || unit == 0x27 {
                quote = unit
            } else if unit == 0x5B {
                bracketDepth += 1
            } else if unit == 0x5D {
                bracketDepth -= 1
            } else if unit == Self.greaterThan, bracketDepth <= 0 {
                state = .text
            }
        case .tagName:
            if unit == Self.greaterThan || unit == Self.slash || unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
                state = .tag
                advance(unit)
                return
            }
            // A prefix (`p:array`) is left out: elements are told by their local name.
            if unit == 0x3A {
                name.removeAll(keepingCapacity: true)
            } else if name.count < 8 {
                name.append(unit)
            }
        case .tag:
            if let open = quote {
                if unit == open { quote = nil }
            } else if unit == 0x22 || unit == 0x27 {
                quote = unit
            } else if unit == Self.slash {
                state = .slashInTag
            } else if unit == Self.greaterThan {
                tagEnded(selfClosing: false)
            }
        case .slashInTag:
            if unit == Self.greaterThan { tagEnded(selfClosing: true) } else { state = .tag; advance(unit) }
        }
    }

    private mutating func tagEnded(selfClosing: Bool) {
        state = .text
        if isEndTag {
            depth -= 1
            if depth == rootDepth { rootClosed = true }
            return
        }
        if rootDepth == nil {
            if depth == 0, name == Array("plist".utf16), !selfClosing {
                insidePlist = true
            } else if depth == (insidePlist ? 1 : 0) {
                rootDepth = depth
                rootIsArray = name == Array("array".utf16)
                if selfClosing { rootClosed = true }
            }
        } else if rootIsArray, !rootClosed, depth == rootDepth.map({ $0 + 1 }) {
            elements += 1
        }
        if !selfClosing { depth += 1 }
    }
}
