import FerryFormats

/// The keys of a record object whose members all hold plain values (strings, numbers, booleans,
/// null), each key once, naming attributes or nothing, with the attribute each names.
///
/// The records of one document usually have the same keys in the same order. Once an object of
/// such a shape has been decoded the general way (every key matched, unknown keys noted), a
/// later object read as ``JSONRecordFields`` with the same keys, in the same order and all plain,
/// leaves nothing about its keys to decide, and its values are coerced straight from their bytes
/// (`DocumentRecordDecoder.decodeFields`).
struct PlainObjectShape {
    /// The keys' UTF-8 bytes, one after another; key `i` ends at `keyEnds[i]`.
    private var keyBytes: [UInt8] = []
    private var keyEnds: [Int] = []
    /// By member, the schema index of the attribute its key names; nil for a key that names nothing.
    let attributes: [Int?]

    init(keys: [String], attributes: [Int?]) {
        for key in keys {
            keyBytes += key.utf8
            keyEnds.append(keyBytes.count)
        }
        self.attributes = attributes
    }

    /// Whether `fields` is an object of this shape: the same keys, byte for byte, in the same
    /// order, each holding a plain value.
    func matches(_ fields: JSONRecordFields) -> Bool {
        guard fields.nonObject == nil, fields.count == keyEnds.count else { return false }
        return keyBytes.withUnsafeBytes { keys in
            var start = 0
            for member in 0..<fields.count {
                if case .nested = fields.kind(at: member) { return false }
                let key = UnsafeRawBufferPointer(rebasing: keys[start..<keyEnds[member]])
                guard fields.withKey(at: member, { $0.elementsEqual(key) }) else { return false }
                start = keyEnds[member]
            }
            return true
        }
    }
}
