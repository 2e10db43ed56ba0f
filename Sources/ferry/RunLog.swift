import Ferry
import FerryMigration
import FerryModel
import FerryPostgres
import FoundationEssentials

/// How a long verb (import, migrate, export, backup, restore, verify) tells what happens while it
/// runs, on standard error: as text (a progress line on a terminal, then warnings, rejects and
/// errors), as nothing but errors (`--quiet`), or as one JSON object per event (`--log json`):
/// `start`, `phase`, `reject`, `warning`, `summary`, `error`, each with its time and the verb.
/// Standard output keeps the verb's results either way; with `--json`, a failure prints a JSON
/// object with the error there too, so a scheduler reading standard output sees every run.
final class RunLog {
    /// The options that choose the log, added to every long verb's.
    static let options: [OptionSpec] = [
        .flag("quiet", "no progress line and no warnings or sample rejects; errors still go to standard error"),
        .choice("log", ["text", "json"], "standard error as text (default), or one JSON object per line and event (for log collectors)"),
    ]

    let verb: String
    private let json: Bool
    private let quiet: Bool
    private let jsonSummary: Bool
    private let progressLine: ProgressLine
    private let started = ContinuousClock.now
    private var phase: (name: String, started: ContinuousClock.Instant)?
    /// Seconds spent in each phase so far, in the order the phases began.
    private(set) var phaseSeconds: [(phase: String, seconds: Double)] = []

    /// The log `arguments` ask for: text unless `--log json`, quiet with `--quiet`; with `--json`
    /// (a JSON summary on standard output) there is no progress line, and failures print JSON too.
    init(verb: String, arguments: ParsedArguments) {
        self.verb = verb
        json = arguments.value("log") == "json"
        quiet = arguments.has("quiet")
        jsonSummary = arguments.has("json")
        progressLine = ProgressLine(verb: verb, enabled: !json && !quiet && !jsonSummary)
    }

    /// Whether events go to standard error as JSON lines (`--log json`).
    var writesJSON: Bool { json }

    /// Seconds since the log was made.
    var elapsed: Double { Self.seconds(ContinuousClock.now - started) }

    /// The run begins, on the positional arguments (sources, stores, databases) `arguments`
    /// name, each as it may be shown (a connection URI without its password).
    func start(_ arguments: ParsedArguments) {
        emit(Event(event: "start", fields: ["inputs": .list(arguments.positionals.map(ConnectionTarget.shown))]))
    }

    /// Takes a job's progress report: the progress line, and a `phase` event when a phase begins.
    func progress(_ progress: JobProgress) {
        if progress.phase != phase?.name {
            closePhase()
            phase = (progress.phase, ContinuousClock.now)
            var fields: [String: Event.Value] = ["phase": .text(progress.phase)]
            if let total = progress.total { fields["total"] = .number(Double(total)) }
            emit(Event(event: "phase", fields: fields))
        }
        progressLine.update(progress)
    }

    /// A record that was rejected (text: one of the samples printed; none with `--quiet`).
    func reject(_ reject: Reject) {
        if json {
            emit(Event(event: "reject", fields: ["message": .text(reject.summary)], reject: reject))
        } else if !quiet {
            Terminal.error("reject: \(reject.summary)")
        }
    }

    /// Something the user should know that did not stop the run (`text` as printed, with its
    /// `warning:`, `hint:` or other lead word).
    func warning(_ text: String) {
        if json {
            emit(Event(event: "warning", fields: ["message": .text(text)]))
        } else if !quiet {
            Terminal.error(text)
        }
    }

    /// A failure the run reports and goes on from (checks that failed): shown even with
    /// `--quiet`; an `error` event with `--log json`.
    func error(_ text: String) {
        if json {
            emit(Event(event: "error", fields: ["message": .text(text)]))
        } else {
            Terminal.error(text)
        }
    }

    /// The run ended with `code`; `counts` are its main figures (records read, written …).
    func summary(_ code: ExitCode, counts: [String: Int] = [:]) {
        finish()
        var fields: [String: Event.Value] = ["exitCode": .number(Double(code.rawValue)), "seconds": .number(elapsed)]
        for (name, count) in counts { fields[name] = .number(Double(count)) }
        emit(Event(event: "summary", fields: fields))
    }

    /// The run failed with `message`: always on standard error (text, or an `error` event), and
    /// with `--json` as `{"verb", "error": {"code", "message"}}` on standard output. Returns `code`.
    @discardableResult
    func failure(_ code: ExitCode, _ message: String) -> ExitCode {
        finish()
        if json {
            emit(Event(event: "error", fields: ["exitCode": .number(Double(code.rawValue)), "message": .text(message),
                                                "seconds": .number(elapsed)]))
        } else {
            Terminal.error("ferry \(verb): \(message)")
        }
        if jsonSummary { Terminal.out(FailureSummary.jsonLine(verb: verb, code: code, message: message) + "\n") }
        return code
    }

    /// Clears the progress line, before a verb prints its result ahead of its summary.
    func clearProgress() {
        progressLine.clear()
    }

    /// Clears the progress line and closes the phase in progress.
    private func finish() {
        progressLine.clear()
        closePhase()
    }

    private func closePhase() {
        guard let phase else { return }
        phaseSeconds.append((phase.name, Self.seconds(ContinuousClock.now - phase.started)))
        self.phase = nil
    }

    private func emit(_ event: Event) {
        guard json else { return }
        var event = event
        event.verb = verb
        Terminal.error(event.jsonLine)
    }

    static func seconds(_ duration: Duration) -> Double {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return (seconds * 1000).rounded() / 1000
    }
}

/// One line of `--log json`.
private struct Event: Encodable {
    enum Value: Encodable {
        case text(String)
        case number(Double)
        case list([String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number):
                if number == number.rounded(), abs(number) < 1e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
            case .list(let list): try container.encode(list)
            }
        }
    }

    var time = ISO8601Date.format((Date().timeIntervalSinceReferenceDate * 1000).rounded(.down) / 1000) ?? ""
    var verb = ""
    let event: String
    var fields: [String: Value]
    var reject: Reject?

    init(event: String, fields: [String: Value], reject: Reject? = nil) {
        self.event = event
        self.fields = fields
        self.reject = reject
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(time, forKey: Key(stringValue: "time"))
        try container.encode(verb, forKey: Key(stringValue: "verb"))
        try container.encode(event, forKey: Key(stringValue: "event"))
        for (name, value) in fields { try container.encode(value, forKey: Key(stringValue: name)) }
        if let reject { try container.encode(reject, forKey: Key(stringValue: "reject")) }
    }

    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return #"{"event":"\#(event)"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What `--json` prints on standard output when a run fails.
enum FailureSummary {
    private struct Line: Encodable {
        struct Failure: Encodable {
            let code: Int32
            let message: String
        }

        let verb: String
        let error: Failure
    }

    static func jsonLine(verb: String, code: ExitCode, message: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Line(verb: verb, error: .init(code: code.rawValue, message: message))) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
