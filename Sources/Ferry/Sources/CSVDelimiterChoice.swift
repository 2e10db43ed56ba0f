/// The delimiter a CSV source was read with and what chose it, for the job's summary.
public struct CSVDelimiterChoice: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What chose the delimiter.
    public enum Basis: String, Sendable, Codable {
        /// `--delimiter`.
        case option
        /// A `.tsv` file name: tab.
        case fileName = "file-name"
        /// `CSVDialect.sniff` over the source's first 64 KB (standard input's too).
        case sniffed
    }

    /// The delimiter, as text.
    public var delimiter: String
    public var basis: Basis

    public init(delimiter: UInt8, basis: Basis) {
        self.delimiter = String(decoding: [delimiter], as: UTF8.self)
        self.basis = basis
    }

    /// `delimiter ';' (sniffed)`, `delimiter tab (.tsv file name)`.
    public var description: String {
        let shown = delimiter == "\t" ? "tab" : "'\(delimiter)'"
        let why = switch basis {
        case .option: "--delimiter"
        case .fileName: ".tsv file name"
        case .sniffed: "sniffed"
        }
        return "delimiter \(shown) (\(why))"
    }
}
