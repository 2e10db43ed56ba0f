/// The word pools the generators draw legacy text from, quirks included.
enum LegacyText {
    static let plainWords = [
        "IMG", "report", "Quarterly", "holiday", "scan", "invoice", "draft", "final", "notes",
        "meeting", "photo", "budget", "contract", "slides", "backup", "voice memo",
    ]
    static let cjkWords = ["报告", "会议记录", "照片", "旅行", "写真", "資料", "보고서", "사진", "見積書", "家族"]
    static let emoji = ["🎉", "📷", "🚀", "✅", "👍🏽", "🇯🇵", "👨‍👩‍👧"]
    static let awkwardNames = [
        "Smith, John - contract", "He said \"final\"", "line one\nline two", "a,b,c", "\"quoted\"",
        "100% \"done\", really", "trailing, ",
    ]
    /// Extensions per `fileType` 0…5 (image, video, audio, document, archive, other).
    static let extensions = [[".jpg", ".png", ".heic"], [".mov", ".mp4"], [".m4a", ".mp3"], [".pdf", ".docx"], [".zip"], [".bin"]]
    static let outOfRangeTypes: [Int64] = [9, -1, 6, 42, 255]
    static let badSizes = ["", "n/a", "N/A", "12,50", "abc", "1.2.3", "NaN", "-", "12.5 MB"]
    static let badFileTypes = ["abc", "image", "1.5", "二"]
    static let badTimes = ["yesterday", "2019-03-04 10:00", "-", "1.5e9x"]

    static let plainTitles = [
        "Call the bank", "Renew passport", "Send invoice", "Fix the gate", "Book flights",
        "Write report", "Water plants", "Review slides", "Pay rent", "Plan offsite",
    ]
    static let cjkTitles = ["买牛奶", "准备会议 📋", "提交报告", "歯医者の予約", "부모님께 전화", "整理照片 📷", "年末調整"]
    static let descriptionLines = [
        "Bring the signed copy.", "Ask about the fee, and the deadline.", "See \"notes\" folder.",
        "记得带身份证", "Tab\tseparated", "Check twice ✅", "Back slash \\ here",
    ]
    static let tags = ["work", "home", "urgent", "later", "工作", "家庭", "errands", "finance", "🎯 focus"]
    static let outOfRangeLevels: [Int64] = [4, 7, -1, 99]
    static let badTaskIDs: [FieldValue] = [.text("abc"), .text("12a"), .absent]
    static let badDates = ["31/12/2020", "2021-02-30", "tomorrow", "2021-13-01", "20210304"]
    static let badRemindTimes = ["25:61", "9am", "12:5", "noon"]

    /// "yyyy-MM-dd" for a day counted from 1970-01-01 (proleptic Gregorian; days ≥ 0).
    static func day(_ days: Int) -> String {
        // Civil-from-days (H. Hinnant), for the non-negative range only.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        return "\(y)-\(twoDigits(m))-\(twoDigits(d))"
    }

    /// "HH:mm".
    static func timeOfDay(minutes: Int) -> String {
        "\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }

    /// "M.cc" megabytes from a count of hundredths.
    static func megabytes(hundredths: Int) -> String {
        "\(hundredths / 100).\(twoDigits(hundredths % 100))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
