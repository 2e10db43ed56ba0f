/// The flattened object table of a binary property list under construction.
///
/// Objects are numbered in Apple's order: a container first, then its children depth-first (for a
/// dictionary all keys, then all values, keys sorted). Scalars (strings, numbers, booleans, dates,
/// data, UIDs) that are literally equal share one object; containers are never shared.
struct BinaryPropertyListObjectTable {
    enum Entry {
        case scalar(PropertyListValue)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private(set) var entries: [Entry] = []
    private var scalarIndex: [ScalarKey: Int] = [:]
    private let maxDepth: Int

    init(root: PropertyListValue, maxDepth: Int) throws(PropertyListError) {
        self.maxDepth = maxDepth
        _ = try add(root, depth: 0)
    }

    private mutating func add(_ value: PropertyListValue, depth: Int) throws(PropertyListError) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            let index = try reserveContainer(depth: depth)
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                do throws(PropertyListError) {
                    references.append(try add(element, depth: depth + 1))
                } catch {
                    throw error.nested(in: String(position))
                }
            }
            if case .set = value { entries[index] = .set(references) } else { entries[index] = .array(references) }
            return index
        case .dictionary(let dictionary):
            let index = try reserveContainer(depth: depth)
            let sorted = PropertyListKeyOrder.sorted(dictionary)
            var keys: [Int] = []
            var values: [Int] = []
            keys.reserveCapacity(sorted.count)
            values.reserveCapacity(sorted.count)
            for entry in sorted {
                keys.append(addScalar(.string(entry.key), key: .string(LiteralString(entry.key))))
            }
            for entry in sorted {
                do throws(PropertyListError) {
                    values.append(try add(entry.value, depth: depth + 1))
                } catch {
                    throw error.nested(in: entry.key)
                }
            }
            entries[index] = .dictionary(keys: keys, values: values)
            return index
        case .string(let string): return addScalar(value, key: .string(LiteralString(string)))
        case .integer(let integer): return addScalar(value, key: .integer(integer))
        case .real(let real): return addScalar(value, key: .real(real.bitPattern))
        case .unrepresentableReal(let text):
            throw .unencodable(reason: "the real \(text) is beyond what a binary property list's Double holds", keyPath: "/")
        case .bool(let bool): return addScalar(value, key: .bool(bool))
        case .date(let seconds): return addScalar(value, key: .date(seconds.bitPattern))
        case .data(let bytes): return addScalar(value, key: .data(bytes))
        case .uid(let uid): return addScalar(value, key: .uid(uid))
        }
    }

    private mutating func reserveContainer(depth: Int) throws(PropertyListError) -> Int {
        guard depth < maxDepth else {
            throw .unencodable(reason: "containers nested deeper than \(maxDepth)", keyPath: "/")
        }
        entries.append(.array([]))
        return entries.count - 1
    }

    private mutating func addScalar(_ value: PropertyListValue, key: ScalarKey) -> Int {
        if let index = scalarIndex[key] { return index }
        entries.append(.scalar(value))
        scalarIndex[key] = entries.count - 1
        return entries.count - 1
    }

    /// Identity of a scalar for sharing: literal, so canonically equivalent but differently
    /// spelled strings, `0.0` and `-0.0`, or two NaNs with different payloads stay apart.
    private enum ScalarKey: Hashable {
        case string(LiteralString)
        case integer(Int128)
        case real(UInt64)
        case bool(Bool)
        case date(UInt64)
        case data([UInt8])
        case uid(UInt64)
    }

    /// A string compared and hashed by its UTF-8 bytes rather than by Unicode canonical equivalence.
    private struct LiteralString: Hashable {
        let string: String
        init(_ string: String) { self.string = string }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }
        func hash(into hasher: inout Hasher) {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
