/// An attribute whose key records of a source did not have and that took the model's default
/// value: values the run wrote that no record gave, counted so that the report can say so.
public struct AbsentDefault: Sendable, Hashable, Codable, CustomStringConvertible {
    public var entity: String
    public var attribute: String
    /// The default value, as the model gives it.
    public var value: String
    /// How many records lacked the key.
    public var records: Int

    public init(entity: String, attribute: String, value: String, records: Int) {
        self.entity = entity
        self.attribute = attribute
        self.value = value
        self.records = records
    }

    /// `Rec.od: 3 records had no key; the model's default 2.5 was written`.
    public var description: String {
        "\(entity).\(attribute): \(records) record\(records == 1 ? "" : "s") had no key; the model's default \(value) was written"
    }

    /// `entries` with those of one entity and attribute added up, in the order first met.
    public static func merged(_ entries: [AbsentDefault]) -> [AbsentDefault] {
        var merged: [AbsentDefault] = []
        var index: [String: Int] = [:]
        for entry in entries {
            let id = entry.entity + "." + entry.attribute
            if let known = index[id] {
                merged[known].records += entry.records
            } else {
                index[id] = merged.count
                merged.append(entry)
            }
        }
        return merged
    }
}
