/// Counts the records of a JSON or NDJSON file by its structure alone, for `CensusTap`: the
/// elements of the records array (the top-level one, or the one `keyPath` leads to), the lines
/// of NDJSON that hold something, or the one value of a file that is a single record. Strings
/// are passed over by their quotes and escapes; no value is parsed.
public struct JSONRecordCensus: RecordCensus {
    private let layout: JSONRecordLayout
    /// Each open container, true for an object.
    private var containers: [Bool] = []
    private var inString = false
    private var escaped = false
    /// The next string in the current object is a key.
    private var expectingKey = false
    /// How far the first top-level value is read: one value is a single record, and anything
    /// after it makes the file NDJSON (as the reader decides an automatic layout).
    private var firstValue = FirstValue.none
    private var contentAfterFirst = false
    /// Lines holding something other than whitespace, for NDJSON.
    private var filledLines = 0
    private var lineHasContent = false

    /// The keys leading to the records array: how many of them were followed so far.
    private var pathFollowed = 0
    /// The key being read in an object on the path, as written (escapes not undone).
    private var key: [UInt16] = []
    private var capturingKey = false
    /// The key just read leads on along the path: the next value is where it leads.
    private var keyMatched = false
    /// The depth of the records array once it is open, and whether an element may start next.
    private var recordsDepth: Int?
    private var elementMayStart = false
    private var recordsClosed = false
    private var records = 0
    /// Whether the file is UTF-16 (its keys' units are read as UTF-16 text, else as UTF-8).
    private var unitsAreUTF16 = false

    public init(layout: JSONRecordLayout) {
        self.layout = layout
    }

    private var keyPath: [String]? {
        switch layout {
        case .array: []
        case .nested(let keyPath): keyPath
        case .automatic, .single, .lines: nil
        }
    }

    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanUnits(bytes)
    }

    public mutating func scan(_ units: UnsafeBufferPointer<UInt16>) {
        scanUnits(units)
    }

    /// One loop for both widths, specialized for each. UTF-8 passes over sixteen bytes at a time
    /// where none can matter: inside a string, or on a line already known to hold something.
    private mutating func scanUnits<Unit: FixedWidthInteger & UnsignedInteger>(_ units: UnsafeBufferPointer<Unit>) {
        unitsAreUTF16 = Unit.bitWidth == 16
        let count = units.count
        var index = 0
        let lineFeeds = Self.lineFeeds, stringStops = Self.stringStops
        if case .lines = layout {
            // NDJSON: only line feeds, and whether a line holds anything but whitespace, matter.
            while index < count {
                if lineHasContent, Self.sixteenBytes(of: units, at: index, without: lineFeeds) {
                    index += 16
                    continue
                }
                let unit = UInt16(units[index])
                index += 1
                if unit == 0x0A {
                    if lineHasContent { filledLines += 1 }
                    lineHasContent = false
                } else if !lineHasContent, !Self.isWhitespace(unit) {
                    lineHasContent = true
                }
            }
            return
        }
        while index < count {
            if inString, !escaped, !capturingKey, Self.sixteenBytes(of: units, at: index, without: stringStops) {
                index += 16
                continue
            }
            step(UInt16(units[index]))
            index += 1
        }
    }

    private static let lineFeeds = (SIMD16<UInt8>(repeating: 0x0A), SIMD16<UInt8>(repeating: 0x0A), SIMD16<UInt8>(repeating: 0x0A))
    /// What ends a string's plain run: its closing quote, an escape, and a line break (which no
    /// string holds, but a broken NDJSON line does).
    private static let stringStops = (SIMD16<UInt8>(repeating: 0x22), SIMD16<UInt8>(repeating: 0x5C), SIMD16<UInt8>(repeating: 0x0A))

    /// Whether `units` are bytes with sixteen of them from `index` on, none of them one of `values`.
    @inline(__always)
    private static func sixteenBytes<Unit: FixedWidthInteger>(of units: UnsafeBufferPointer<Unit>, at index: Int,
                                                              without values: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)) -> Bool {
        guard Unit.self == UInt8.self, index + 16 <= units.count, let base = units.baseAddress else { return false }
        let block = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
        return !any((block .== values.0) .| (block .== values.1) .| (block .== values.2))
    }

    @inline(__always)
    private static func isWhitespace(_ unit: UInt16) -> Bool {
        unit == 0x20 || unit == 0x0A || unit == 0x0D || unit == 0x09
    }

    private mutating func step(_ unit: UInt16) {
        if unit == 0x0A {
            if lineHasContent { filledLines += 1 }
            lineHasContent = false
        } else if !Self.isWhitespace(unit) {
            lineHasContent = true
        }
        if inString {
            // No string holds a raw line break: where one comes (a broken NDJSON line), the
            // string ends with its line, as the reader's line does.
            if unit == 0x0A {
                (inString, escaped, capturingKey) = (false, false, false)
                return
            }
            if escaped {
                escaped = false
            } else if unit == 0x5C {
                escaped = true
            } else if unit == 0x22 {
                inString = false
                if capturingKey { endKey() }
                if firstValue == .string { firstValue = .done }
                return
            }
            if capturingKey { key.append(unit) }
            return
        }
        if Self.isWhitespace(unit) {
            if firstValue == .scalar { firstValue = .done }
            return
        }
        let depth = containers.count
        if depth == recordsDepth, elementMayStart {
            elementMayStart = false
            if unit != 0x5D { records += 1 }
        }
        if depth == 0 { followTopLevel(unit) }
        switch unit {
        case 0x22:
            inString = true
            capturingKey = expectingKey && isOnPath
            key.removeAll(keepingCapacity: true)
            expectingKey = false
        case 0x7B, 0x5B:
            open(object: unit == 0x7B)
        case 0x7D, 0x5D:
            if !containers.isEmpty { containers.removeLast() }
            if let recordsDepth, depth == recordsDepth { recordsClosed = true }
            if depth == 1, firstValue == .container { firstValue = .done }
            keyMatched = false
            expectingKey = false
        case 0x2C:
            expectingKey = containers.last == true
            if depth == recordsDepth, !recordsClosed { elementMayStart = true }
            keyMatched = false
        case 0x3A:
            break
        default:
            keyMatched = false
        }
    }

    private enum FirstValue { case none, scalar, string, container, done }

    /// A unit outside strings at the top level: where the first value starts and ends, and
    /// whether anything follows it. (Broken NDJSON lines may leave their brackets open: once the
    /// first value is read, nothing else at the top level matters.)
    private mutating func followTopLevel(_ unit: UInt16) {
        switch firstValue {
        case .done:
            contentAfterFirst = true
        case .none:
            switch unit {
            case 0x22: firstValue = .string
            case 0x7B, 0x5B:
                firstValue = .container
                if layout == .automatic, unit == 0x5B { recordsDepth = 1 }
            default: firstValue = .scalar
            }
        case .scalar:
            // A scalar ends at whitespace or at a structural character, which follows it.
            if unit == 0x22 || unit == 0x7B || unit == 0x5B || unit == 0x7D || unit == 0x5D || unit == 0x2C || unit == 0x3A {
                firstValue = .done
                contentAfterFirst = true
            }
        case .string, .container:
            break
        }
    }

    private mutating func open(object: Bool) {
        let depth = containers.count
        containers.append(object)
        expectingKey = object
        if let keyPath, recordsDepth == nil, !recordsClosed {
            if depth == 0, keyPath.isEmpty, !object {
                recordsDepth = 1
            } else if depth == 0, !keyPath.isEmpty, object {
                pathFollowed = 0
            } else if keyMatched, pathFollowed < keyPath.count - 1, object {
                pathFollowed += 1
            } else if keyMatched, pathFollowed == keyPath.count - 1, !object {
                pathFollowed += 1
                recordsDepth = depth + 1
            }
        }
        keyMatched = false
        if containers.count == recordsDepth, !recordsClosed { elementMayStart = true }
    }

    /// Whether the current object is the one on the path whose key is looked for next.
    private var isOnPath: Bool {
        guard let keyPath, recordsDepth == nil, pathFollowed < keyPath.count else { return false }
        return containers.count == pathFollowed + 1
    }

    private mutating func endKey() {
        capturingKey = false
        guard let keyPath else { return }
        keyMatched = JSONKeyText.text(ofWritten: key, utf16: unitsAreUTF16) == keyPath[pathFollowed]
    }

    public mutating func finish() -> CensusOutcome {
        if lineHasContent { filledLines += 1 }
        let topLevelValues = layout == .single || (layout == .automatic && recordsDepth == nil)
        // NDJSON counts lines: a broken line's open string or bracket ends with it.
        if layout == .lines || (topLevelValues && layout == .automatic && contentAfterFirst) {
            return .counted(records: filledLines, skippedLines: 0)
        }
        if inString { return .malformed("a string is still open at the end of the file") }
        // One value is the one record.
        if topLevelValues { return .counted(records: firstValue == .none ? 0 : 1, skippedLines: 0) }
        guard recordsDepth != nil else { return .malformed("no array of records where the layout says") }
        return .counted(records: records, skippedLines: 0)
    }
}

/// Keys of JSON objects as written in the file, read as text to compare with a key path's: escapes
/// undone (`\"`, `\n`, `\u00e9` and surrogate pairs), then compared as Swift strings are, by
/// canonical equivalence (`café` composed or not), as the reader finds its records' key.
enum JSONKeyText {
    /// The key's text; nil for an escape that is cut short or not hexadecimal.
    static func text(ofWritten written: [UInt16], utf16: Bool) -> String? {
        let raw = utf16 ? String(decoding: written, as: UTF16.self) : String(decoding: written.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        guard raw.contains("\\") else { return raw }
        // Escapes are ASCII, so they are undone on the decoded text; `\u` gives UTF-16 units,
        // so a surrogate pair joins when the units are decoded.
        var units: [UInt16] = []
        var scalars = raw.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                units += scalar.utf16
                continue
            }
            guard let letter = scalars.next() else { return nil }
            switch letter {
            case "b": units.append(0x08)
            case "f": units.append(0x0C)
            case "n": units.append(0x0A)
            case "r": units.append(0x0D)
            case "t": units.append(0x09)
            case "u":
                var hex = String.UnicodeScalarView()
                for _ in 0..<4 {
                    guard let digit = scalars.next() else { return nil }
                    hex.append(digit)
                }
                guard let code = UInt16(String(hex), radix: 16) else { return nil }
                units.append(code)
            default: units += letter.utf16
            }
        }
        return String(decoding: units, as: UTF16.self)
    }
}
