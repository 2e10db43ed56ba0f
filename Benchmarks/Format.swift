import Foundation

/// Number formatting shared by the table, the JSON and the logs.
enum Format {
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
    static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
    /// KB (as `ru_maxrss` gives them) to MB with one decimal.
    static func megabytes(kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
    /// A number without a trailing `.0`.
    static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
    /// 1000000 as 1,000,000.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index).isMultiple(of: 3) { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
