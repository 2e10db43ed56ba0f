/// Decodes the objects of one binary property list held in a contiguous buffer.
///
/// Every object is decoded at most once and cached, so shared references (Apple's writer shares
/// equal strings and numbers) cost nothing extra while decoding. An object that is reached again
/// while it is still being decoded is a cycle.
///
/// Whoever walks the decoded value meets a shared object once per reference to it, so a chain of
/// containers that each reference the next twice holds 2^n objects for such a walk. Each object's
/// expanded size (itself and everything below it, shared objects counted once per reference) is
/// cached with it, and a value larger than `maxObjects` is refused where it starts.
struct BinaryPropertyListParser {
    private typealias Format = BinaryPropertyListFormat
    private let bytes: UnsafeBufferPointer<UInt8>
    private let trailer: BinaryPropertyListTrailer
    private let maxDepth: Int
    private let maxObjects: Int
    private var decoded: [(value: PropertyListValue, size: Int)?]
    private var inProgress: [Bool]
    /// Keys a dictionary held more than once (the last value is kept), by the element of the
    /// top array they were met in (nil: the top object is not an array). A dictionary shared by
    /// several elements is decoded, and its keys noted, once.
    private(set) var repeatedKeys: [Int?: RepeatedPropertyListKeys] = [:]
    /// The element of the top array being decoded.
    private var topElement: Int?

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, maxObjects: Int) throws(PropertyListError) {
        self.bytes = bytes
        self.trailer = try BinaryPropertyListTrailer(bytes)
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.decoded = Array(repeating: nil, count: trailer.objectCount)
        self.inProgress = Array(repeating: false, count: trailer.objectCount)
    }

    /// The value of the trailer's top object.
    mutating func decodeTopObject() throws(PropertyListError) -> PropertyListValue {
        try object(trailer.topObject, depth: 0).value
    }

    // MARK: objects

    /// The object and its expanded size.
    private mutating func object(_ reference: Int, depth: Int) throws(PropertyListError) -> (value: PropertyListValue, size: Int) {
        if let known = decoded[reference] { return known }
        let offset = try objectOffset(reference)
        guard !inProgress[reference] else { throw .binary(.cycle, offset: offset) }
        inProgress[reference] = true
        let result = try decodeObject(at: offset, depth: depth)
        inProgress[reference] = false
        decoded[reference] = result
        return result
    }

    /// Adds a member's expanded size to its container's, refusing a container that grows past the limit.
    private func grow(_ size: inout Int, by member: Int, containerAt offset: Int) throws(PropertyListError) {
        size += member // both at most maxObjects, so this cannot overflow
        guard size <= maxObjects else { throw .binary(.tooManyObjects(limit: maxObjects), offset: offset) }
    }

    private func objectOffset(_ reference: Int) throws(PropertyListError) -> Int {
        let entry = trailer.offsetTableStart + reference * trailer.offsetSize
        let offset = bytes.bigEndianInteger(at: entry, width: trailer.offsetSize)
        guard offset >= UInt64(Format.headerSize), offset < UInt64(trailer.offsetTableStart) else {
            throw .binary(.objectOffsetOutOfRange(Int(truncatingIfNeeded: offset)), offset: entry)
        }
        return Int(offset)
    }

    private mutating func decodeObject(at offset: Int, depth: Int) throws(PropertyListError) -> (value: PropertyListValue, size: Int) {
        let marker = bytes[offset]
        guard let kind = Format.Kind(rawValue: marker >> 4) else {
            throw .binary(.unknownMarker(marker), offset: offset)
        }
        switch kind {
        case .singleton:
            switch marker {
            case Format.markerFalse: return (.bool(false), 1)
            case Format.markerTrue: return (.bool(true), 1)
            case 0x00, 0x0F: throw .binary(.unsupportedObject(marker), offset: offset)
            default: throw .binary(.unknownMarker(marker), offset: offset)
            }
        case .integer:
            return (.integer(try integer(at: offset)), 1)
        case .real:
            return (.real(try real(at: offset)), 1)
        case .date:
            guard marker == Format.markerDate else { throw .binary(.invalidWidth(marker: marker), offset: offset) }
            let seconds = Double(bitPattern: try fixedWidth(at: offset + 1, width: 8))
            guard seconds.isFinite else { throw .binary(.invalidDate, offset: offset) }
            return (.date(seconds), 1)
        case .data:
            let (count, start) = try length(at: offset, unitSize: 1)
            return (.data(Array(bytes[start..<(start + count)])), 1)
        case .asciiString:
            let (count, start) = try length(at: offset, unitSize: 1)
            return (.string(Self.asciiString(UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]))), 1)
        case .utf16String:
            let (count, start) = try length(at: offset, unitSize: 2)
            return (.string(try utf16String(count: count, start: start, offset: offset)), 1)
        case .uid:
            let width = Int(marker & 0x0F) + 1
            guard width <= 8 else { throw .binary(.invalidWidth(marker: marker), offset: offset) }
            return (.uid(try fixedWidth(at: offset + 1, width: width)), 1)
        case .array, .set:
            return try decodeArray(at: offset, isSet: kind == .set, depth: depth)
        case .dictionary:
            return try decodeDictionary(at: offset, depth: depth)
        }
    }

    private mutating func decodeArray(at offset: Int, isSet: Bool, depth: Int) throws(PropertyListError) -> (value: PropertyListValue, size: Int) {
        guard depth < maxDepth else { throw .binary(.nestingTooDeep(limit: maxDepth), offset: offset) }
        let (count, start) = try length(at: offset, unitSize: trailer.objectReferenceSize)
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        var size = 1
        for index in 0..<count {
            if depth == 0 { topElement = index }
            let element = try object(try reference(at: start, index: index), depth: depth + 1)
            try grow(&size, by: element.size, containerAt: offset)
            elements.append(element.value)
        }
        if depth == 0 { topElement = nil }
        return (isSet ? .set(elements) : .array(elements), size)
    }

    private mutating func decodeDictionary(at offset: Int, depth: Int) throws(PropertyListError) -> (value: PropertyListValue, size: Int) {
        guard depth < maxDepth else { throw .binary(.nestingTooDeep(limit: maxDepth), offset: offset) }
        let (count, start) = try length(at: offset, unitSize: 2 * trailer.objectReferenceSize)
        var entries: [String: PropertyListValue] = [:]
        entries.reserveCapacity(count)
        var size = 1
        for index in 0..<count {
            let keyReference = try reference(at: start, index: index)
            guard case (.string(let key), let keySize) = try object(keyReference, depth: depth + 1) else {
                throw .binary(.nonStringKey, offset: try objectOffset(keyReference))
            }
            let entry = try object(try reference(at: start, index: count + index), depth: depth + 1)
            try grow(&size, by: keySize, containerAt: offset)
            try grow(&size, by: entry.size, containerAt: offset)
            if entries.updateValue(entry.value, forKey: key) != nil { repeatedKeys[topElement, default: RepeatedPropertyListKeys()].note(key) }
        }
        return (.dictionary(entries), size)
    }

    // MARK: scalars

    private func integer(at offset: Int) throws(PropertyListError) -> Int128 {
        let marker = bytes[offset]
        let exponent = marker & 0x0F
        guard exponent <= 4 else { throw .binary(.invalidWidth(marker: marker), offset: offset) }
        switch 1 << exponent {
        case 16:
            let high = try fixedWidth(at: offset + 1, width: 8)
            let low = try fixedWidth(at: offset + 9, width: 8)
            return Int128(Int64(bitPattern: high)) << 64 | Int128(low)
        case 8:
            return Int128(Int64(bitPattern: try fixedWidth(at: offset + 1, width: 8)))
        case let width:
            return Int128(try fixedWidth(at: offset + 1, width: width))
        }
    }

    private func real(at offset: Int) throws(PropertyListError) -> Double {
        switch bytes[offset] {
        case Format.markerReal32: Double(Float(bitPattern: UInt32(try fixedWidth(at: offset + 1, width: 4))))
        case Format.markerReal64: Double(bitPattern: try fixedWidth(at: offset + 1, width: 8))
        case let marker: throw .binary(.invalidWidth(marker: marker), offset: offset)
        }
    }

    /// `width` bytes at `start`, checked against the end of the object area.
    private func fixedWidth(at start: Int, width: Int) throws(PropertyListError) -> UInt64 {
        guard start + width <= trailer.offsetTableStart else { throw .binary(.truncatedObject, offset: start) }
        return bytes.bigEndianInteger(at: start, width: width)
    }

    /// The element count of the object at `offset` and where its payload starts, checked so that
    /// `count * unitSize` bytes fit before the end of the object area.
    private func length(at offset: Int, unitSize: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        let nibble = bytes[offset] & 0x0F
        var count = UInt64(nibble)
        var start = offset + 1
        if nibble == Format.extendedCount {
            guard start < trailer.offsetTableStart else { throw .binary(.truncatedObject, offset: start) }
            let countMarker = bytes[start]
            guard countMarker >> 4 == Format.Kind.integer.rawValue, countMarker & 0x0F <= 3 else {
                throw .binary(.invalidCount, offset: start)
            }
            let width = 1 << Int(countMarker & 0x0F)
            count = try fixedWidth(at: start + 1, width: width)
            guard count <= UInt64(Int.max) else { throw .binary(.invalidCount, offset: start) }
            start += 1 + width
        }
        let available = UInt64(trailer.offsetTableStart - start)
        guard count <= available / UInt64(unitSize) else { throw .binary(.countExceedsInput(count), offset: offset) }
        return (Int(count), start)
    }

    private func reference(at start: Int, index: Int) throws(PropertyListError) -> Int {
        let position = start + index * trailer.objectReferenceSize
        let reference = bytes.bigEndianInteger(at: position, width: trailer.objectReferenceSize)
        guard reference < UInt64(trailer.objectCount) else {
            throw .binary(.objectReferenceOutOfRange(reference), offset: position)
        }
        return Int(reference)
    }

    // MARK: strings

    /// An ASCII-typed string (marker 0x5). Apple's writer marks only pure ASCII this way, but
    /// real files (iTunes, old dictionaries) hold other bytes there. Policy: decode as UTF-8 when
    /// the bytes are valid UTF-8, otherwise as Latin-1 (every byte is one code point), so
    /// no input is rejected and nothing is replaced.
    static func asciiString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let string = String(validating: bytes, as: UTF8.self) { return string }
        var latin1 = ""
        latin1.unicodeScalars.append(contentsOf: bytes.lazy.map { Unicode.Scalar($0) })
        return latin1
    }

    private func utf16String(count: Int, start: Int, offset: Int) throws(PropertyListError) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
            let position = start + 2 * index
            units.append(UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1]))
        }
        guard let string = String(validating: units, as: UTF16.self) else {
            throw .binary(.invalidUTF16, offset: offset)
        }
        return string
    }
}
