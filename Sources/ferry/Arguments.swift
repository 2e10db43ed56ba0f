/// A command-line option a verb accepts.
struct OptionSpec {
    let name: String
    /// The value's placeholder in help text, or nil for a flag.
    let value: String?
    let help: String
    /// Whether the option may be given more than once.
    var repeatable = false
}

/// A verb's arguments after parsing: positionals in order, options by name.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an integer option, which must be a whole number within `range` (and so fit
    /// `Number`); anything else is a usage error naming the option and the range.
    func integer<Number: FixedWidthInteger>(_ name: String, in range: ClosedRange<Number>) throws(UsageError) -> Number? {
        guard let text = value(name) else { return nil }
        guard let number = Number(text), range.contains(number) else {
            let bounds = range.upperBound == Number.max ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("--\(name) takes a whole number \(bounds), not '\(text)'")
        }
        return number
    }

    /// The value of a required option.
    func required(_ name: String) throws(UsageError) -> String {
        guard let text = value(name) else { throw UsageError("--\(name) is required") }
        return text
    }
}

/// A mistake in how the command was called (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Parses `--name value`, `--name=value`, `--flag`, `-` (stdin) and `--` (end of options).
enum ArgumentParser {
    static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("--") || argument == "-" {
                if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                    throw UsageError("unknown option '\(argument)'")
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            guard spec.value != nil else {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(spec.value ?? "VALUE"))") }
                value = arguments[index]
                index += 1
            }
            if !spec.repeatable, parsed.values[name] != nil { throw UsageError("--\(name) is given twice") }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}
