/// `NAME=VALUE` options as a dictionary.
enum Pairs {
    static func parse(_ arguments: ParsedArguments, _ option: String) throws(UsageError) -> [String: String] {
        var result: [String: String] = [:]
        for pair in arguments.values[option] ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw UsageError("--\(option) takes NAME=VALUE, not '\(pair)'") }
            result[parts[0]] = parts[1]
        }
        return result
    }
}
