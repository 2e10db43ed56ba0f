import FerryModel

/// Decimals a store cannot keep as they are. A Core Data store keeps a Decimal as a real
/// (`DecimalNotation.stored`), so a decimal of more significant digits than a Double holds, or
/// beyond its range, would read back as another number: Ferry rejects its record instead of
/// writing a number the source never held (and its checks, which encode both sides alike, would
/// not see the difference).
public enum StoredDecimal {
    /// Why a store cannot keep the plain decimal `plain`, or nil when it reads back unchanged.
    public static func problem(_ plain: String) -> String? {
        guard let stored = DecimalNotation.stored(plain) else {
            return "\(TextCoercion.clipped(plain)) is beyond the range of a store's Decimal (a real)"
        }
        guard stored != plain else { return nil }
        return "\(TextCoercion.clipped(plain)) has more significant digits than a store's Decimal (a real) keeps: it would read back as \(TextCoercion.clipped(stored))"
    }

    /// Why a record with `values` (of `schema`'s attributes, in order) cannot be written as it
    /// is, naming the first Decimal a store would change; nil when every Decimal reads back unchanged.
    static func problem(_ values: [AttributeValue], schema: RecordSchema) -> String? {
        for index in values.indices {
            guard case .decimal(let plain) = values[index], let problem = problem(plain) else { continue }
            return "\(schema.entity.name).\(schema.attributes[index].name): \(problem)"
        }
        return nil
    }
}
