import FerryModel

/// Values the model's bounds forbid (`AttributeBounds`: Xcode's Minimum and Maximum of a number,
/// or of a string's length). Core Data's validation refuses to save such an object, so Ferry
/// rejects its record rather than write one the app could not save.
enum BoundedValues {
    /// Why a record with `values` (of `schema`'s attributes, in order) breaks a bound, naming the
    /// first attribute that does; nil when every bounded value keeps within its bounds.
    static func problem(_ values: [AttributeValue], schema: RecordSchema) -> String? {
        for (index, bounds) in schema.bounded where index < values.count {
            guard let problem = bounds.problem(of: values[index]) else { continue }
            return "\(schema.entity.name).\(schema.attributes[index].name): \(problem)"
        }
        return nil
    }
}
