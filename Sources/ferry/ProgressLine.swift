import Ferry
import FerryMigration
import FoundationEssentials

/// The progress line of a long verb on a terminal: the phase, the records done (and the percent of
/// the input when its size is known), records per second and the time left, redrawn in place at
/// most four times a second. Nothing at all when standard error is not a terminal.
final class ProgressLine {
    private let verb: String
    private let enabled: Bool
    private var phase = ""
    private var phaseStart = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now - .seconds(1)

    init(verb: String, enabled: Bool) {
        self.verb = verb
        self.enabled = enabled && Terminal.stderrIsTerminal
    }

    /// Takes a report from the job; redraws when a new phase begins or a quarter second passed.
    func update(_ progress: JobProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        if progress.phase != phase {
            phase = progress.phase
            phaseStart = now
        } else if now - lastDrawn < .milliseconds(250) {
            return
        }
        lastDrawn = now
        Terminal.progress(Self.text(verb: verb, progress, elapsed: now - phaseStart))
    }

    /// Clears the line (before the summary or an error is printed).
    func clear() {
        if enabled { Terminal.progress(nil) }
    }

    /// `ferry migrate: reading a.sqlite 42% 420,000 records 210,000/s 3 s left`.
    static func text(verb: String, _ progress: JobProgress, elapsed: Duration) -> String {
        var line = "ferry \(verb): \(progress.phase)"
        guard progress.done > 0 else { return line }
        if let total = progress.total, total > 0 { line += " \(min(100, progress.done * 100 / total))%" }
        line += " \(grouped(progress.done)) records"
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0.5 else { return line }
        let rate = Double(progress.done) / seconds
        line += " \(grouped(Int(rate)))/s"
        if let total = progress.total, rate > 0, total > progress.done {
            line += " \(Int((Double(total - progress.done) / rate).rounded(.up))) s left"
        }
        return line
    }

    /// `1234567` as `1,234,567`.
    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
