import FerryMigration
import FerryModel
import Testing

@Suite("mapping expressions: evaluation")
struct ExpressionEvaluationTests {
    private func value(_ text: String, _ attributes: [String: AttributeValue] = [:], zone: String? = nil,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AttributeValue? {
        ExpressionHarness.value(text, attributes, zone: zone, sourceLocation: sourceLocation)
    }

    private func failure(_ text: String, _ attributes: [String: AttributeValue] = [:]) -> String? {
        ExpressionHarness.failure(text, attributes)
    }

    @Test("text slices: prefix, suffix and substring count characters, clamp at the ends, and refuse negative counts")
    func slices() {
        let content: [String: AttributeValue] = ["content": .string("Héllo wörld")]
        #expect(value(#"prefix(content, 4) + "...""#, content) == .string("Héll..."))
        #expect(value("suffix(content, 5)", content) == .string("wörld"))
        #expect(value("substring(content, 6, 3)", content) == .string("wör"))
        #expect(value("prefix(content, 40)", content) == .string("Héllo wörld"))
        #expect(value("substring(content, 40, 2)", content) == .string(""))
        #expect(value("prefix(content, 0)", content) == .string(""))
        #expect(value("prefix(content, 3)", ["content": .null]) == .null)
        #expect(failure("prefix(content, -1)", content)?.hasSuffix("prefix is -1, not 0 or more") == true)
        #expect(failure("substring(content, 1, n)", ["content": .string("abc"), "n": .string("2")])?.contains("needs an integer") == true)
    }

    @Test("integers stay integers and overflow is a failure")
    func integers() {
        #expect(value("7 * 6 - 2") == .integer(40))
        #expect(value("-9223372036854775807 - 1") == .integer(.min))
        #expect(failure("9223372036854775807 + 1") == "9223372036854775807 + 1: 9223372036854775807 + 1 overflows Integer 64")
        #expect(failure("-9223372036854775808 * -1")?.contains("overflows Integer 64") == true)
        #expect(failure("-n", ["n": .integer(.min)]) == "-n: -(-9223372036854775808) overflows Integer 64")
    }

    @Test("decimals are exact for + - * and / rounds to 38 significant digits")
    func decimals() {
        #expect(value("0.1 + 0.2") == .decimal("0.3"))
        #expect(value("12.50 * 1048576") == .decimal("13107200"))
        #expect(value("1.5 * -2") == .decimal("-3"))
        #expect(value("1 - 1.25") == .decimal("-0.25"))
        #expect(value("123456789012345678901234567890.5 * 10") == .decimal("1234567890123456789012345678905"))
        #expect(value("7 / 2") == .decimal("3.5"))
        #expect(value("1 / 3") == .decimal("0." + String(repeating: "3", count: 38)))
        #expect(value("2 / 3") == .decimal("0." + String(repeating: "6", count: 37) + "7"))
        #expect(value("-1 / 8") == .decimal("-0.125"))
        #expect(value("12345678901234567890123456789012345678901.0 / 2") == .decimal("6172839450617283945061728394506172839451"))
        #expect(value("-20000000000000000000000000000000000000000.0 / 3") == .decimal("-6666666666666666666666666666666666666667"))
        #expect(value("0.5 / 0.25") == .decimal("2"))
        #expect(value("100 / 0.001") == .decimal("100000"))
        #expect(failure("1 / 0") == "1 / 0: division of integer 1 by zero")
        #expect(failure("1.5 / 0.0") == "1.5 / 0.0: division of decimal 1.5 by zero")
        #expect(failure("x + 1", ["x": .decimal("abc")]) == "x + 1: decimal value 'abc' is not a number")
    }

    @Test("doubles make doubles; non-finite results and division by zero are failures")
    func doubles() {
        #expect(value("double(\"1.5\") * 2") == .double(3))
        #expect(value("x + 0.5", ["x": .double(1)]) == .double(1.5))
        #expect(value("x / 4", ["x": .double(1)]) == .double(0.25))
        #expect(failure("x / 0", ["x": .double(1)]) == "x / 0: division of double 1.0 by zero")
        #expect(failure("x * x", ["x": .double(1e300)])?.contains("out of range for Double") == true)
        #expect(value("-x", ["x": .double(2)]) == .double(-2))
    }

    @Test("+ with a string joins texts; other operators on strings fail")
    func strings() {
        #expect(value("\"a\" + 1 + 2.50") == .string("a12.5"))
        #expect(value("1 + \"a\"") == .string("1a"))
        #expect(value("\"at \" + d", ["d": ExpressionHarness.date("2014-03-01T00:00:00Z")]) == .string("at 2014-03-01T00:00:00.000Z"))
        #expect(value("\"x\" + nil") == .null)
        #expect(failure("\"a\" * 2") == "\"a\" * 2: cannot apply '*' to string \"a\" and integer 2")
        #expect(failure("-s", ["s": .string("a")]) == "-s: cannot negate string \"a\"")
        #expect(failure("true + 1") == "true + 1: cannot apply '+' to true and integer 1")
    }

    @Test("dates move by seconds; a date minus a date is seconds")
    func dateArithmetic() {
        let day = ExpressionHarness.date("2014-03-01T00:00:00Z")
        #expect(value("d + 3600", ["d": day]) == ExpressionHarness.date("2014-03-01T01:00:00Z"))
        #expect(value("d - 0.5", ["d": day]) == ExpressionHarness.date("2014-02-28T23:59:59.5Z"))
        #expect(value("d - date(\"2014-02-28\")", ["d": day]) == .double(86_400))
        #expect(failure("d * 2", ["d": day]) == "d * 2: cannot apply '*' to date 2014-03-01T00:00:00Z and integer 2")
        // A date moved past the years 0 to 9999, or to infinity, is a failure: an infinite date was
        // written (and exported as "Infinity"), and infinity minus itself (NaN) stored as NULL.
        #expect(failure("d + x", ["d": day, "x": .double(1e308)])?.contains("is outside the years 0 to 9999") == true)
        #expect(failure("x + d", ["d": day, "x": .double(-1e12)])?.contains("is outside the years 0 to 9999") == true)
        #expect(failure("d - e", ["d": .date(.infinity), "e": .date(.infinity)])?.contains("is out of range for Double") == true)
    }

    /// Only a bare `$zone` was checked when the mapping loaded: `coalesce($zone, "UTC")` with
    /// `--var zone=Mars/Olympus` rejected every record, one by one.
    @Test("a time zone computed from variables alone is checked before any record; one that reads the record is not")
    func zonesFromVariables() throws {
        func problem(_ text: String, _ variables: [String: String]) throws -> String? {
            try MappingExpression(parsing: text, line: 1, column: 1).variableProblem(variables, allGiven: false)
        }
        let mars = ["zone": "Mars/Olympus"]
        #expect(try problem("date(x, \"yyyy-MM-dd\", $zone)", mars)?.hasPrefix("$zone: unknown time zone 'Mars/Olympus'") == true)
        #expect(try problem("date(x, \"yyyy-MM-dd\", coalesce($zone, \"UTC\"))", mars)?
            .hasPrefix("coalesce($zone, \"UTC\"): unknown time zone 'Mars/Olympus'") == true)
        #expect(try problem("date(x, \"yyyy-MM-dd\", $area + \"/\" + $city)", ["area": "Asia", "city": "Shanghai"]) == nil)
        #expect(try problem("date(x, \"yyyy-MM-dd\", $area + \"/\" + $city)", ["area": "Asia", "city": "Nowhere"]) != nil)
        #expect(try problem("date(x, \"yyyy-MM-dd\", coalesce(z, $zone))", mars) == nil)
        #expect(try problem("date(x, \"yyyy-MM-dd\", coalesce($zone, \"UTC\"))", [:]) == nil)
    }

    @Test("split(…) cuts at the separator's bytes: a separator before a combining mark still splits, empty parts stay")
    func splitParts() throws {
        let parts = MadeRecordRule.Parts(text: try MappingExpression(parsing: "tagList", line: 1, column: 1), separator: ",")
        #expect(parts.parts(of: "a,\u{301}b,c").map { Array($0.utf8) } == [[0x61], [0xCC, 0x81, 0x62], [0x63]])
        #expect(parts.parts(of: ",x,,") == ["", "x", "", ""])
        #expect(parts.parts(of: "") == [""])
        let long = MadeRecordRule.Parts(text: try MappingExpression(parsing: "tagList", line: 1, column: 1), separator: "、 ")
        #expect(long.parts(of: "写真、 動画、、 音") == ["写真", "動画、", "音"])
    }

    @Test("comparisons: numbers across types, strings, dates; mismatched kinds fail")
    func comparisons() {
        #expect(value("1 == 1.0") == .bool(true))
        #expect(value("1 < double(\"1.5\")") == .bool(true))
        #expect(value("2.5 >= 2") == .bool(true))
        #expect(value("x == 0.1", ["x": .double(0.1)]) == .bool(true))
        #expect(value("\"abc\" < \"abd\"") == .bool(true))
        #expect(value("\"b\" <= \"a\"") == .bool(false))
        // Texts compare by their bytes, as a where filter and SQLite do: "é" as one scalar and as
        // "e" with a combining accent are two texts (they were one for ==, in and lookup).
        let decomposed = AttributeValue.string("e\u{301}")
        #expect(value("s == \"\u{E9}\"", ["s": decomposed]) == .bool(false))
        #expect(value("s in [\"\u{E9}\", \"x\"]", ["s": decomposed]) == .bool(false))
        #expect(value("lookup(s, {\"\u{E9}\": 1}, 0)", ["s": decomposed]) == .integer(0))
        #expect(value("s == \"e\u{301}\"", ["s": decomposed]) == .bool(true))
        #expect(value("\"\u{E9}\" > s", ["s": decomposed]) == .bool(true))
        #expect(decomposed != .string("\u{E9}") && Set([decomposed, .string("\u{E9}")]).count == 2)
        #expect(AttributeValue.double(-0.0) == .double(0) && Set([AttributeValue.double(-0.0), .double(0)]).count == 1)
        #expect(value("date(\"2014-03-01\") > date(\"2014-02-28\")") == .bool(true))
        #expect(value("u == u", ["u": .uuid(UUIDBytes([UInt8](repeating: 1, count: 16))!)]) == .bool(true))
        #expect(value("true != false") == .bool(true))
        #expect(failure("x == \"1\"", ["x": .integer(1)]) == "x == \"1\": cannot compare integer 1 with string \"1\"")
        #expect(failure("true < false") == "true < false: cannot compare true with false")
    }

    @Test("nil: equal only to nil, propagates through operators and functions, three-valued logic")
    func nils() {
        #expect(value("nil == nil") == .bool(true))
        #expect(value("x != \"\"", ["x": .null]) == .bool(true))
        #expect(value("x == 0", ["x": .null]) == .bool(false))
        #expect(value("x < 1", ["x": .null]) == .null)
        #expect(value("x + 1", ["x": .null]) == .null)
        #expect(value("-x", ["x": .null]) == .null)
        #expect(value("round(x)", ["x": .null]) == .null)
        #expect(value("replace(\"a\", x, \"b\")", ["x": .null]) == .null)
        #expect(value("not x", ["x": .null]) == .null)
        #expect(value("x and false", ["x": .null]) == .bool(false))
        #expect(value("x and true", ["x": .null]) == .null)
        #expect(value("x or true", ["x": .null]) == .bool(true))
        #expect(value("x or false", ["x": .null]) == .null)
        #expect(value("1 if x else 2", ["x": .null]) == .integer(2))
        #expect(value("x between 1 and 2", ["x": .null]) == .null)
        #expect(value("x in [1, nil]", ["x": .null]) == .null)
        #expect(value("2 in [1, nil, 2]") == .bool(true))
        #expect(value("coalesce(x, nil, 3, 4)", ["x": .null]) == .integer(3))
        #expect(value("coalesce(x)", ["x": .null]) == .null)
        #expect(value("isnil(x)", ["x": .null]) == .bool(true))
        #expect(value("isnil(\"\")") == .bool(false))
        #expect(failure("1 and true") == "1: a condition must be true or false, got integer 1")
    }

    @Test("between is inclusive; in compares like ==")
    func ranges() {
        for (number, inside) in [(-1, false), (0, true), (3, true), (5, true), (6, false)] {
            #expect(value("x between 0 and 5", ["x": .integer(Int64(number))]) == .bool(inside))
        }
        #expect(value("2.5 between 2 and 3") == .bool(true))
        #expect(value("\"m\" between \"a\" and \"z\"") == .bool(true))
        #expect(value("1.0 in [0, 1, 2]") == .bool(true))
        #expect(value("3 in [0, 1, 2]") == .bool(false))
        #expect(value("3 in []") == .bool(false))
        #expect(failure("\"1\" in [0, 1]") == "\"1\" in [0, 1]: cannot compare string \"1\" with integer 0")
    }

    @Test("conversions read text with the import's rules and name the value when they fail")
    func conversions() {
        #expect(value("integer(\" 42 \")") == .integer(42))
        #expect(value("integer(12.0)") == .integer(12))
        #expect(value("integer(true)") == .integer(1))
        #expect(value("integer(x)", ["x": .double(-3)]) == .integer(-3))
        #expect(failure("integer(12.5)") == "integer(12.5): decimal 12.5 is not a whole number (use round, floor or ceil)")
        #expect(failure("integer(\"abc\")") == "integer(\"abc\"): 'abc' is not an integer")
        #expect(failure("integer(x)", ["x": .double(1e20)]) == "integer(x): double 1e+20 is out of range for Integer 64")
        #expect(value("double(1)") == .double(1))
        #expect(value("double(\"2.5\")") == .double(2.5))
        #expect(failure("double(\"n/a\")") == "double(\"n/a\"): 'n/a' is not a number")
        #expect(value("decimal(\"12.50\")") == .decimal("12.5"))
        #expect(value("decimal(x)", ["x": .double(0.1)]) == .decimal("0.1"))
        #expect(value("decimal(7)") == .decimal("7"))
        #expect(failure("decimal(d)", ["d": ExpressionHarness.date("2014-03-01")]) == "decimal(d): cannot convert date 2014-03-01T00:00:00Z to a decimal")
        #expect(value("text(12.50)") == .string("12.5"))
        #expect(value("text(x)", ["x": .double(1e20)]) == .string("100000000000000000000"))
        #expect(value("text(true)") == .string("true"))
        #expect(value("text(date(\"2014-03-01T09:05:07.25Z\"))") == .string("2014-03-01T09:05:07.250Z"))
        #expect(value("text(date(\"1999-12-31T23:59:59.9996Z\"))") == .string("1999-12-31T23:59:59.9996Z"))
        // A date no ISO 8601 text holds fails, as it does crossing to a String by inference (it was "1e+300 seconds since 2001").
        #expect(failure("text(d)", ["d": .date(1e300)]) == "text(d): a Date of 1e+300 seconds since 2001 has no ISO 8601 text (its year is past ±999999)")
        #expect(value("text(b)", ["b": .binary([1, 2, 3])]) == .string("AQID"))
        #expect(value("text(u)", ["u": .uuid(UUIDBytes(string: "a00a7d19-6876-8a4f-aa88-8084d993c5b9")!)]) == .string("A00A7D19-6876-8A4F-AA88-8084D993C5B9"))
        #expect(value("bool(\"Yes\")") == .bool(true))
        #expect(value("bool(0)") == .bool(false))
        #expect(value("bool(1.0)") == .bool(true))
        #expect(failure("bool(2)") == "bool(2): integer 2 is not a boolean (1 or 0)")
        #expect(failure("bool(\"maybe\")")?.hasPrefix("bool(\"maybe\"): 'maybe' is not a boolean") == true)
    }

    @Test("round is half away from zero, floor and ceil are exact on decimals")
    func rounding() {
        #expect(value("round(2.5)") == .integer(3))
        #expect(value("round(-2.5)") == .integer(-3))
        #expect(value("round(2.4999999999999999999999)") == .integer(2))
        #expect(value("round(0.5)") == .integer(1))
        #expect(value("round(0.05)") == .integer(0))
        #expect(value("floor(-2.5)") == .integer(-3))
        #expect(value("floor(2.5)") == .integer(2))
        #expect(value("ceil(-2.5)") == .integer(-2))
        #expect(value("ceil(2.000001)") == .integer(3))
        #expect(value("ceil(0.001)") == .integer(1))
        #expect(value("round(7)") == .integer(7))
        #expect(value("round(x)", ["x": .double(2.5)]) == .integer(3))
        #expect(value("floor(x)", ["x": .double(-0.5)]) == .integer(-1))
        #expect(value("round(-9223372036854775808.4)") == .integer(.min))
        #expect(failure("round(9223372036854775807.5)") == "round(9223372036854775807.5): decimal 9223372036854775807.5 is out of range for Integer 64")
        #expect(failure("round(\"2.5\")") == "round(\"2.5\"): needs a number, got string \"2.5\"")
        // Rounding up past the largest magnitude fails rather than wrapping.
        #expect(failure("round(-9223372036854775808.5)")?.hasSuffix("is out of range for Integer 64") == true)
        #expect(failure("ceil(18446744073709551615.5)")?.hasSuffix("is out of range for Integer 64") == true)
        #expect(value("floor(0.0001)") == .integer(0))
        #expect(value("ceil(-0.0001)") == .integer(0))
    }

    @Test("decimal products and sums keep every digit, in plain form")
    func decimalText() {
        #expect(value("decimal(\"0.001\") * 3") == .decimal("0.003"))
        #expect(value("decimal(\"-0.5\") * 2") == .decimal("-1"))
        #expect(value("decimal(\"12.50\") * 1048576") == .decimal("13107200"))
        #expect(value("decimal(\"1e-3\") + decimal(\"-1e-3\")") == .decimal("0"))
        // Text is read exactly, with more digits than a store keeps: only a value written to a
        // Decimal attribute is held to that (it refused these, whose results fit).
        #expect(value("round(decimal(\"8796093022207.9999995\") * 1048576)") == .integer(.max))
        #expect(value("round(decimal(\" 0.00000047683715820312499999 \") * 1048576)") == .integer(0))
        #expect(failure("decimal(\"12,5\")") == "decimal(\"12,5\"): '12,5' is not a decimal number")
    }

    @Test("string functions")
    func stringFunctions() {
        #expect(value("trim(\"  a b \\n\")") == .string("a b"))
        #expect(value("trim(\"   \")") == .string(""))
        #expect(value("lower(\"ÄbC\")") == .string("äbc"))
        #expect(value("upper(\"äbc\")") == .string("ÄBC"))
        #expect(value("length(\"héllo\")") == .integer(5))
        #expect(value("replace(\"a-b-c\", \"-\", \"/\")") == .string("a/b/c"))
        #expect(failure("replace(\"abc\", \"\", \"x\")") == "replace(\"abc\", \"\", \"x\"): the text to replace is empty")
        #expect(failure("trim(12)") == "trim(12): needs text, got integer 12")
    }

    @Test("dates from ISO 8601 text, Unix seconds and seconds since 2001")
    func dates() {
        #expect(value("date(\"2014-03-01T12:00:00+08:00\")") == ExpressionHarness.date("2014-03-01T04:00:00Z"))
        #expect(value("date(0)") == .date(-978_307_200))
        #expect(value("unixtime(1393632000)") == ExpressionHarness.date("2014-03-01T00:00:00Z"))
        #expect(value("unixtime(\"1393632000\")") == ExpressionHarness.date("2014-03-01T00:00:00Z"))
        #expect(value("epoch2001(86400)") == .date(86_400))
        #expect(failure("date(\"01/03/2014\")")?.hasPrefix("date(\"01/03/2014\"): '01/03/2014' is not an ISO 8601 date") == true)
        #expect(failure("unixtime(true)") == "unixtime(true): needs a number of seconds, got true")
        // Whole seconds are converted exactly; past 2^53 they would become another second (the date changed, exit 0).
        #expect(value("unixtime(253402300799)") == ExpressionHarness.date("9999-12-31T23:59:59Z"))
        // A date an expression makes is within the years 0 to 9999, as import reads legacy numbers:
        // milliseconds taken for seconds were written as the year 45970 (exit 0).
        #expect(failure("unixtime(1388538000000)") == "unixtime(1388538000000): 1387559692800 seconds since 2001 is outside the years "
                + "0 to 9999 (if it counts milliseconds, divide it by 1000)")
        #expect(failure("unixtime(253402300800)")?.hasSuffix("is outside the years 0 to 9999 (if it counts milliseconds, divide it by 1000)") == true)
        #expect(failure("epoch2001(x)", ["x": .double(1e300)])?.contains("is outside the years 0 to 9999") == true)
        #expect(failure("date(x)", ["x": .double(-1e12)])?.contains("is outside the years 0 to 9999") == true)
        #expect(failure("unixtime(9223372036854775807)")
                == "unixtime(9223372036854775807): 9223372036854775807 seconds is past what a date holds exactly (2^53 seconds)")
        #expect(failure("unixtime(\"soon\")") == "unixtime(\"soon\"): 'soon' is not a number")
    }

    @Test("date patterns: fields, quoted text, milliseconds, offsets and named zones")
    func datePatterns() {
        #expect(value("date(\"01.03.2014 at 09:05:07.250\", \"dd.MM.yyyy 'at' HH:mm:ss.SSS\")")
            == ExpressionHarness.date("2014-03-01T09:05:07.25Z"))
        #expect(value("date(\"3/1/2014\", \"M/d/yyyy\", \"+08:00\")") == ExpressionHarness.date("2014-02-28T16:00:00Z"))
        #expect(value("date(\"2014-03-01 it's\", \"yyyy-MM-dd 'it''s'\", \"-0500\")") == ExpressionHarness.date("2014-03-01T05:00:00Z"))
        #expect(value("date(x, \"yyyyMMdd\", \"Z\")", ["x": .string("20140301")]) == ExpressionHarness.date("2014-03-01T00:00:00Z"))
        #expect(value("date(x, f, $zone)", ["x": .string("2014-03-01"), "f": .string("yyyy-MM-dd")], zone: "Europe/Berlin")
            == ExpressionHarness.date("2014-02-28T23:00:00Z"))
        #expect(failure("date(x, f)", ["x": .string("2014"), "f": .string("yyyy")]) == "date(x, f): date pattern 'yyyy' needs a year, a month and a day (yyyy, MM, dd)")
        #expect(failure("date(\"2014-3-01\", \"yyyy-MM-dd\")")?.hasSuffix("'2014-3-01' does not match the date pattern 'yyyy-MM-dd'") == true)
        #expect(failure("date(\"2014-03-01x\", \"yyyy-MM-dd\")")?.hasSuffix("does not match the date pattern 'yyyy-MM-dd'") == true)
        #expect(failure("date(\"2014-03-01\", \"yyyy-MM-dd\", z)", ["z": .string("+25:00")])?.hasSuffix("'+25:00' is not a time zone offset (+08:00, -0500 or +08)") == true)
        #expect(failure("date(1, \"yyyy-MM-dd\")") == "date(1, \"yyyy-MM-dd\"): needs text, a text pattern and a text zone, got integer 1, string \"yyyy-MM-dd\" and string \"UTC\"")
        #expect(failure("date(\"2014-03-01\", \"yyyy-MM-dd\", $zone)") == "unknown variable $zone (it must be given at run time)")
    }

    @Test("lookup maps keys to values (keys of other kinds never match), with or without a default")
    func lookups() {
        let table = "lookup(x, {0: \"image\", 1: \"video\", \"doc\": \"document\", true: \"yes\"}"
        #expect(value(table + ", \"other\")", ["x": .integer(1)]) == .string("video"))
        #expect(value(table + ", \"other\")", ["x": .decimal("0")]) == .string("image"))
        #expect(value(table + ", \"other\")", ["x": .integer(9)]) == .string("other"))
        #expect(value(table + ", \"other\")", ["x": .null]) == .null)
        #expect(failure("lookup(x, {0: \"a\"})", ["x": .integer(9)]) == "lookup(x, {0: \"a\"}): no entry for integer 9")
        #expect(failure("lookup(x, {0: \"a\"})", ["x": .string("0")]) == "lookup(x, {0: \"a\"}): no entry for string \"0\"")
    }

    @Test("unknown attributes and variables are failures naming them")
    func unknowns() {
        #expect(failure("fileSiz + 1", ["fileSize": .string("1")]) == "the record has no attribute 'fileSiz'")
        #expect(failure("$zone") == "unknown variable $zone (it must be given at run time)")
        #expect(value("$zone", [:], zone: "UTC") == .string("UTC"))
    }

    @Test("evaluation never traps on hostile values")
    func hostileValues() {
        let values: [AttributeValue] = [.null, .integer(.min), .integer(.max), .double(.infinity), .double(-.nan), .double(1e308),
                                        .decimal("9" + String(repeating: "9", count: 400)), .decimal("not a number"),
                                        .string(""), .string(String(repeating: "x", count: 10_000)), .bool(true), .date(.infinity),
                                        .date(-1e300), .binary([]), .uri("a:b")]
        let expressions = ["x + x", "x - 1", "x * x", "x / 3", "-x", "round(x)", "floor(x)", "integer(x)", "decimal(x)",
                           "double(x)", "text(x)", "bool(x)", "date(x)", "unixtime(x)", "x < x", "x == 1", "uuid(x)",
                           "date(x, \"yyyy-MM-dd\", \"Asia/Shanghai\")", "length(x)", "x between 1 and 2", "\"a\" + x"]
        for text in expressions {
            for input in values {
                guard let expression = try? MappingExpression(parsing: text, line: 1, column: 1) else {
                    Issue.record("\(text) does not parse")
                    continue
                }
                switch expression.evaluate(ExpressionRecord(attributes: ["x": input])) {
                case .success: break
                case let .failure(failure): #expect(!failure.reason.isEmpty)
                }
            }
        }
    }
}
