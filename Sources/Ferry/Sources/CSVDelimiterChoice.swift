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
        /// Several delimiters fit the first lines alike; this one splits the header into the
        /// most names of the entity's attributes.
        case header
    }

    /// The delimiter, as text.
    public var delimiter: String
    public var basis: Basis

    public init(delimiter: UInt8, basis: Basis) {
        self.delimiter = String(decoding: [delimiter], as: UTF8.self)
        self.basis = basis
    }

    /// The delimiter as messages show it: `','`, `tab`.
    public var shownDelimiter: String { delimiter == "\t" ? "tab" : "'\(delimiter)'" }

    /// `delimiter ';' (sniffed)`, `delimiter tab (.tsv file name)`.
    public var description: String {
        let shown = shownDelimiter
        let why = switch basis {
        case .option: "--delimiter"
        case .fileName: ".tsv file name"
        case .sniffed: "sniffed"
        case .header: "sniffed: of the delimiters that fit, the one whose header names the most attributes"
        }
        return "delimiter \(shown) (\(why))"
    }
}
