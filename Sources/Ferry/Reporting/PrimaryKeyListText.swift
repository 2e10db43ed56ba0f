/// `Z_PK`s as a report lists them: the first 20, then how many more.
enum PrimaryKeyListText {
    static func list(_ keys: [Int64]) -> String {
        let shown = keys.prefix(20).map(String.init).joined(separator: ", ")
        return keys.count > 20 ? shown + ", … (\(keys.count - 20) more)" : shown
    }
}
