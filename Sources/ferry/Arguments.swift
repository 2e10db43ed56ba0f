import FerryFormats
import FerryPostgres

/// What an option takes. The kind is declared once, with the option, and everything else comes
/// from it: the placeholder `--help` shows, the check (and its usage error) when the command is
/// parsed, and what a shell completes.
enum OptionValue: Equatable {
    /// No value: the option is given or not.
    case flag
    /// Free text, shown as the placeholder.
    case text(String)
    /// A file or folder (completed as a path), shown as the placeholder.
    case path(String)
    /// A whole number within the range (every integer option takes 0 or more).
    case integer(String, ClosedRange<UInt64>)
    /// One of fixed words.
    case choice([String])
    /// The name of a version of the model given with `--model`.
    case version
    /// The name of an entity of the model (given with `--model`, or the store's own).
    case entity

    /// What `--help` adds to the option's explanation: the bounds of an integer with an upper
    /// bound below the largest `Int` (those without one say their least value in their errors).
    var helpSuffix: String {
        guard case .integer(_, let range) = self, range.upperBound < UInt64(Int.max) else { return "" }
        return ", \(range.lowerBound) to \(range.upperBound)"
    }

    /// What `--help` shows after the option's name, or nil for a flag.
    var placeholder: String? {
        switch self {
        case .flag: nil
        case .text(let placeholder), .path(let placeholder), .integer(let placeholder, _): placeholder
        case .choice(let words): words.joined(separator: "|")
        case .version: "VERSION"
        case .entity: "ENTITY"
        }
    }
}

/// A command-line option a verb accepts.
struct OptionSpec {
    let name: String
    let kind: OptionValue
    let help: String
    /// Whether the option may be given more than once.
    var repeatable = false
    /// A path option that takes a PostgreSQL connection too (`migrate --out`); any other refuses
    /// one rather than use it as a path (and show its password in messages).
    var takesDatabase = false

    init(name: String, kind: OptionValue, help: String, repeatable: Bool = false) {
        self.name = name
        self.kind = kind
        self.help = help
        self.repeatable = repeatable
    }

    /// An option of free text (`value` is its placeholder), or a flag when `value` is nil.
    init(name: String, value: String?, help: String, repeatable: Bool = false) {
        self.init(name: name, kind: value.map(OptionValue.text) ?? .flag, help: help, repeatable: repeatable)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, kind: .flag, help: help) }

    static func path(_ name: String, _ placeholder: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .path(placeholder), help: help, repeatable: repeatable)
    }

    static func integer(_ name: String, _ placeholder: String, _ range: ClosedRange<Int>, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .integer(placeholder, UInt64(range.lowerBound)...UInt64(range.upperBound)), help: help)
    }

    static func choice(_ name: String, _ words: [String], _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .choice(words), help: help)
    }

    /// A choice among the raw values of `type`'s cases, in their order.
    static func choice<Choice: CaseIterable & RawRepresentable>(_ name: String, _ type: Choice.Type, _ help: String) -> OptionSpec
    where Choice.RawValue == String {
        choice(name, type.allCases.map(\.rawValue), help)
    }

    static func version(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, kind: .version, help: help) }

    static func entity(_ name: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .entity, help: help, repeatable: repeatable)
    }

    /// The usage error for `text` given to this option, or nil when the kind accepts it.
    func refusal(of text: String) -> UsageError? {
        switch kind {
        case .integer(_, let range):
            guard let number = UInt64(text), range.contains(number) else {
                let bounds = range.upperBound >= UInt64(Int.max)
                    ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
                return UsageError("--\(name) takes a whole number \(bounds), not '\(text)'")
            }
            return nil
        case .choice(let words):
            guard words.contains(text) else {
                return UsageError("--\(name) takes \(Self.list(words)), not '\(text)'" + NameSuggestion.hint(for: text, among: words))
            }
            return nil
        case .path:
            // An empty path would name the current folder's parent's entry "" (a mistake, never a file).
            if text.isEmpty { return UsageError("--\(name) needs a path, not an empty one") }
            if !takesDatabase, ConnectionTarget.looksLikeConnection(text) {
                return UsageError("--\(name) takes a file or folder, not a PostgreSQL connection (\(ConnectionTarget.shown(text)))"
                    + "; for a file of that name, write ./\(Self.fileNamePrefix(text))…")
            }
            return nil
        case .flag, .text, .version, .entity:
            return nil
        }
    }

    /// A path option that takes a PostgreSQL connection too.
    func orDatabase() -> OptionSpec {
        var spec = self
        spec.takesDatabase = true
        return spec
    }

    /// The scheme a text that looks like a connection starts with (`postgresql:`), to show.
    static func fileNamePrefix(_ text: String) -> String {
        String(text.prefix { $0 != ":" }) + ":"
    }

    /// `a, b or c`.
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
}

/// A verb's arguments after parsing: positionals in order, options by name.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an integer option, already checked against its declared range when parsed.
    func integer<Number: FixedWidthInteger>(_ name: String, as type: Number.Type = Int.self) throws(UsageError) -> Number? {
        guard let text = value(name) else { return nil }
        guard let number = Number(text) else { throw UsageError("--\(name) takes a whole number, not '\(text)'") }
        return number
    }

    /// The value of a choice option as the type its words spell.
    func choice<Choice: RawRepresentable>(_ name: String, as type: Choice.Type) throws(UsageError) -> Choice?
    where Choice.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let choice = Choice(rawValue: text) else { throw UsageError("--\(name) does not take '\(text)'") }
        return choice
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

/// Parses `--name value`, `--name=value`, `--flag`, `-` (stdin) and `--` (end of options), and
/// checks each value against its option's kind.
enum ArgumentParser {
    /// `elsewhere`: the option names of the other verbs, so that an option this verb lacks is
    /// named as another's (`import --lenient`: an option of migrate).
    /// `databaseFirst`: whether the first positional may be a PostgreSQL connection; any other
    /// positional that looks like one is refused rather than read as a path.
    static func parse(_ arguments: [String], options: [OptionSpec], elsewhere: [(verb: String, options: [String])] = [],
                      databaseFirst: Bool = false) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("--") || argument == "-" {
                if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                    throw UsageError("unknown option '\(argument)'" + suggestion(for: argument.drop { $0 == "-" }, options))
                }
                if ConnectionTarget.looksLikeConnection(argument), !(databaseFirst && parsed.positionals.isEmpty) {
                    throw UsageError("\(ConnectionTarget.shown(argument)): a PostgreSQL connection, where this verb takes files and stores"
                        + (databaseFirst ? " (a connection is its first argument)" : "")
                        + "; for a file of that name, write ./\(OptionSpec.fileNamePrefix(argument))…")
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
                let hint = suggestion(for: name, options)
                let verbs = elsewhere.filter { $0.options.contains(name) }.map(\.verb)
                throw UsageError("unknown option '--\(name)'" + (hint.isEmpty && !verbs.isEmpty
                    ? " (an option of \(verbs.joined(separator: ", ")), not of this verb)" : hint))
            }
            guard let placeholder = spec.kind.placeholder else {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(placeholder))") }
                value = arguments[index]
                index += 1
            }
            if !spec.repeatable, parsed.values[name] != nil { throw UsageError("--\(name) is given twice") }
            if let refusal = spec.refusal(of: value) { throw refusal }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }

    /// ` (did you mean '--X'?)` for a mistyped option name; for `--no-X` where the verb has
    /// `--X` (or the other way round), which one it has.
    private static func suggestion(for name: some StringProtocol, _ options: [OptionSpec]) -> String {
        let names = options.map(\.name) + ["help"]
        let opposite = name.hasPrefix("no-") ? String(name.dropFirst(3)) : "no-" + name
        if names.contains(opposite) { return " (this verb has '--\(opposite)')" }
        return NameSuggestion.hint(for: String(name), among: names, quote: { "'--\($0)'" })
    }
}
