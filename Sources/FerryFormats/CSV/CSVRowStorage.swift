/// The memory of one CSV row: its field bytes back to back, and for each field where it ends and
/// whether it was quoted.
///
/// ``CSVReader`` fills it through pointers, so appending a byte or ending a field checks no
/// copy-on-write, and reuses it for the next row once no ``CSVRow`` holds it any more; a row that
/// is kept keeps its storage, and the reader starts a new one. Storage a row holds is never
/// written again, which makes sharing it across threads safe (`@unchecked Sendable`) and leaves
/// no conflicting access to check at run time (`@exclusivity(unchecked)`: the checks would cost
/// more than the scanning they guard).
@usableFromInline
final class CSVRowStorage: @unchecked Sendable {
    /// The field bytes, unescaped; `byteCount` of `byteCapacity` are in use.
    @exclusivity(unchecked) @usableFromInline private(set) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline private(set) var byteCount = 0
    @exclusivity(unchecked) private(set) var byteCapacity: Int
    /// `fieldEnds[i]` is the end of field `i` in `bytes`; it starts where field `i - 1` ends.
    @exclusivity(unchecked) @usableFromInline private(set) var fieldEnds: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) @usableFromInline private(set) var quotedFlags: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) @usableFromInline private(set) var fieldCount = 0
    @exclusivity(unchecked) private var fieldCapacity: Int

    init(byteCapacity: Int = 1024, fieldCapacity: Int = 32) {
        self.byteCapacity = max(byteCapacity, 16)
        self.fieldCapacity = max(fieldCapacity, 4)
        bytes = .allocate(capacity: self.byteCapacity)
        fieldEnds = .allocate(capacity: self.fieldCapacity)
        quotedFlags = .allocate(capacity: self.fieldCapacity)
    }

    deinit {
        bytes.deallocate()
        fieldEnds.deallocate()
        quotedFlags.deallocate()
    }

    /// Empties the storage for the next row.
    func removeAll() {
        byteCount = 0
        fieldCount = 0
    }

    /// Appends `count` bytes from `source`.
    @inline(__always)
    func append(_ source: UnsafePointer<UInt8>, count: Int) {
        if byteCount + count > byteCapacity { growBytes(toFit: byteCount + count) }
        (bytes + byteCount).update(from: source, count: count)
        byteCount += count
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if byteCount == byteCapacity { growBytes(toFit: byteCount + 1) }
        bytes[byteCount] = byte
        byteCount += 1
    }

    /// Drops the bytes from `offset` on (the part of an oversized field read so far).
    func removeBytes(from offset: Int) {
        byteCount = min(byteCount, offset)
    }

    /// Ends the field being read at the current end of the bytes.
    @inline(__always)
    func endField(quoted: Bool) {
        if fieldCount == fieldCapacity { growFields() }
        fieldEnds[fieldCount] = byteCount
        quotedFlags[fieldCount] = quoted
        fieldCount += 1
    }

    private func growBytes(toFit needed: Int) {
        var capacity = byteCapacity * 2
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.initialize(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = capacity
    }

    private func growFields() {
        let capacity = fieldCapacity * 2
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        ends.initialize(from: fieldEnds, count: fieldCount)
        fieldEnds.deallocate()
        fieldEnds = ends
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        flags.initialize(from: quotedFlags, count: fieldCount)
        quotedFlags.deallocate()
        quotedFlags = flags
        fieldCapacity = capacity
    }
}
