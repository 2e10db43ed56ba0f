import FerryMigration
import FerryModel
import Testing

/// The Workspace 2 → 3 rules of DOMAIN.md §2, written as mapping expressions.
@Suite("mapping expressions: the flagship rules")
struct ExpressionFlagshipTests {
    private func evaluate(_ text: String, _ attributes: [String: AttributeValue], zone: String = "Asia/Shanghai") throws
        -> Result<AttributeValue, ExpressionFailure>
    {
        try MappingExpression(parsing: text, line: 1, column: 1)
            .evaluate(ExpressionRecord(attributes: attributes, variables: ["zone": zone]))
    }

    @Test("byteCount = round(decimal(fileSize) * 1048576)")
    func byteCount() throws {
        let rule = "round(decimal(fileSize) * 1048576)"
        #expect(try evaluate(rule, ["fileSize": .string("12.50")]).get() == .integer(13_107_200))
        #expect(try evaluate(rule, ["fileSize": .string("0.01")]).get() == .integer(10_486))
        #expect(try evaluate(rule, ["fileSize": .string(" 3 ")]).get() == .integer(3_145_728))
        #expect(try evaluate(rule, ["fileSize": .null]).get() == .null)
        #expect(try evaluate(rule, ["fileSize": .string("n/a")]) == .failure(ExpressionFailure("decimal(fileSize): 'n/a' is not a decimal number")))
        #expect(try evaluate(rule, ["fileSize": .string("")]) == .failure(ExpressionFailure("decimal(fileSize): '' is not a decimal number")))
        #expect(try evaluate(rule, ["fileSize": .string("1e40")])
            == .failure(ExpressionFailure("round(decimal(fileSize) * 1048576): decimal 10485760000000000000000000000000000000000000000 is out of range for Integer 64")))
    }

    @Test("createdAt = unixtime(time)")
    func createdAt() throws {
        #expect(try evaluate("unixtime(time)", ["time": .integer(1_393_632_000)]).get() == ExpressionHarness.date("2014-03-01T00:00:00Z"))
        #expect(try evaluate("unixtime(time)", ["time": .integer(0)]).get() == .date(-ReferenceDate.unixOffset))
        #expect(try evaluate("unixtime(time)", ["time": .null]).get() == .null)
    }

    @Test("kind = fileType if fileType between 0 and 5 else 5")
    func kind() throws {
        let rule = "fileType if fileType between 0 and 5 else 5"
        for (fileType, kind) in [(0, 0), (3, 3), (5, 5), (6, 5), (-1, 5), (40000, 5)] {
            #expect(try evaluate(rule, ["fileType": .integer(Int64(fileType))]).get() == .integer(Int64(kind)))
        }
        // A missing type makes the condition nil, which picks the else branch: "other".
        #expect(try evaluate(rule, ["fileType": .null]).get() == .integer(5))
    }

    @Test("uploadID = uuid(time, remotePath, fileName) is deterministic and sensitive to every input")
    func uploadID() throws {
        let rule = "uuid(time, remotePath, fileName)"
        let base: [String: AttributeValue] = ["time": .integer(1_393_632_000), "remotePath": .string("/files/a.jpg"), "fileName": .string("a.jpg")]
        let id = try evaluate(rule, base).get()
        // The recipe (NameBasedUUID) pinned: SHA-256 of the namespace and the tagged, length-prefixed
        // arguments, computed independently.
        #expect(id == .uuid(try #require(UUIDBytes(string: "A00A7D19-6876-8A4F-AA88-8084D993C5B9"))))
        #expect(try evaluate(rule, base).get() == id)
        guard case let .uuid(bytes) = id else { return }
        #expect(bytes.bytes[6] >> 4 == 8)
        #expect(bytes.bytes[8] >> 6 == 0b10)

        var ids: Set<AttributeValue> = [id]
        let variants: [[String: AttributeValue]] = [
            base.merging(["time": .integer(1_393_632_001)]) { $1 },
            base.merging(["remotePath": .string("/files/b.jpg")]) { $1 },
            base.merging(["fileName": .string("a.JPG")]) { $1 },
            base.merging(["fileName": .null]) { $1 },
            base.merging(["fileName": .string("")]) { $1 },
            base.merging(["remotePath": .null, "fileName": .null]) { $1 },
            base.merging(["remotePath": .string(""), "fileName": .string("")]) { $1 },
            base.merging(["time": .string("1393632000")]) { $1 },
            base.merging(["remotePath": .string("/files/a.jp"), "fileName": .string("ga.jpg")]) { $1 },
        ]
        for record in variants { ids.insert(try evaluate(rule, record).get()) }
        #expect(ids.count == variants.count + 1)
    }

    @Test("uuid: numbers hash by value, so 1, 1.0 and decimal 1.00 agree; text and numbers do not")
    func uuidEncoding() throws {
        let one = try evaluate("uuid(x)", ["x": .integer(1)]).get()
        #expect(try evaluate("uuid(x)", ["x": .double(1)]).get() == one)
        #expect(try evaluate("uuid(x)", ["x": .decimal("1.00")]).get() == one)
        #expect(try evaluate("uuid(x)", ["x": .string("1")]).get() != one)
        #expect(try evaluate("uuid(\"ab\", \"c\")", [:]).get() != evaluate("uuid(\"a\", \"bc\")", [:]).get())
        #expect(try evaluate("uuid(nil)", [:]).get() != evaluate("uuid(\"\")", [:]).get())
    }

    @Test("dueDate = date(taskDate, \"yyyy-MM-dd\", $zone) in Asia/Shanghai")
    func dueDate() throws {
        let rule = "date(taskDate, \"yyyy-MM-dd\", $zone)"
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01")]).get() == ExpressionHarness.date("2014-02-28T16:00:00Z"))
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01")], zone: "UTC").get() == ExpressionHarness.date("2014-03-01T00:00:00Z"))
        #expect(try evaluate(rule, ["taskDate": .null]).get() == .null)
        #expect(try evaluate(rule, ["taskDate": .string("2014-02-30")]) == .failure(ExpressionFailure(
            "date(taskDate, \"yyyy-MM-dd\", $zone): '2014-02-30' is not a valid date and time: February 2014 has 28 days")))
        #expect(try evaluate(rule, ["taskDate": .string("2016-02-29")]).get() == ExpressionHarness.date("2016-02-28T16:00:00Z"))
        #expect(try evaluate(rule, ["taskDate": .string("2014-13-01")]) == .failure(ExpressionFailure(
            "date(taskDate, \"yyyy-MM-dd\", $zone): '2014-13-01' is not a valid date and time: month 13 is not 1 to 12")))
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01")], zone: "Asia/Shangai") == .failure(ExpressionFailure(
            "date(taskDate, \"yyyy-MM-dd\", $zone): unknown time zone 'Asia/Shangai' (an IANA name like Asia/Shanghai, UTC, or an offset like +08:00)")))
    }

    @Test("remindAt = date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone) if remindTime != \"\" else nil")
    func remindAt() throws {
        let rule = "date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone) if remindTime != \"\" else nil"
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .string("09:30")]).get()
            == ExpressionHarness.date("2014-03-01T01:30:00Z"))
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .string("")]).get() == .null)
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .null]).get() == .null)
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .string("25:61")]) == .failure(ExpressionFailure(
            "date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone): '2014-03-01 25:61' is not a valid date and time: hour 25 is not 0 to 23")))
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .string("23:60")]) == .failure(ExpressionFailure(
            "date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone): '2014-03-01 23:60' is not a valid date and time: minute 60 is not 0 to 59")))
        #expect(try evaluate(rule, ["taskDate": .string("2014-03-01"), "remindTime": .string("9.30")]) == .failure(ExpressionFailure(
            "date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone): '2014-03-01 9.30' does not match the date pattern 'yyyy-MM-dd HH:mm'")))
    }

    @Test("daylight saving in America/New_York: a skipped time moves forward, a repeated time is the earlier instant")
    func daylightSaving() throws {
        let rule = "date(t, \"yyyy-MM-dd HH:mm\", $zone)"
        let cases: [(String, String)] = [
            ("2014-03-09 01:59", "2014-03-09T06:59:00Z"),   // EST, just before the jump
            ("2014-03-09 02:30", "2014-03-09T07:30:00Z"),   // does not exist: read as 03:30 EDT
            ("2014-03-09 03:00", "2014-03-09T07:00:00Z"),   // EDT
            ("2014-11-02 00:59", "2014-11-02T04:59:00Z"),   // EDT
            ("2014-11-02 01:30", "2014-11-02T05:30:00Z"),   // happens twice: the first, 01:30 EDT
            ("2014-11-02 02:00", "2014-11-02T07:00:00Z"),   // EST
            ("2014-07-01 12:00", "2014-07-01T16:00:00Z"),
            ("2014-01-01 12:00", "2014-01-01T17:00:00Z"),
        ]
        for (local, utc) in cases {
            #expect(try evaluate(rule, ["t": .string(local)], zone: "America/New_York").get() == ExpressionHarness.date(utc), "\(local)")
        }
    }

    @Test("named zones read dates on the proleptic Gregorian calendar, as offsets and ISO 8601 do (no Julian days before 1582)")
    func namedZonesKeepOneCalendar() throws {
        let rule = "date(t, \"yyyy-MM-dd HH:mm\", $zone)"
        let cases: [(String, String, String)] = [
            ("1500-03-01 12:00", "Etc/UTC", "1500-03-01T12:00:00Z"),
            ("1582-10-10 00:00", "Etc/UTC", "1582-10-10T00:00:00Z"),  // a day Julian calendars skip
            ("0001-01-01 00:00", "Etc/UTC", "0001-01-01T00:00:00Z"),
            ("1500-03-01 12:00", "UTC", "1500-03-01T12:00:00Z"),
            ("1800-01-01 12:00", "America/New_York", "1800-01-01T16:56:02Z"),  // local mean time, -4:56:02
        ]
        for (local, zone, utc) in cases {
            #expect(try evaluate(rule, ["t": .string(local)], zone: zone).get() == ExpressionHarness.date(utc), "\(local) \(zone)")
        }
    }
}
