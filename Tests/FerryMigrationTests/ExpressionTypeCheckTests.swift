import FerryMigration
import FerryModel
import Testing

@Suite("mapping expressions: type checking at load time")
struct ExpressionTypeCheckTests {
    private let upload: [String: AttributeType] = [
        "fileSize": .string, "time": .integer64, "fileType": .integer16, "remotePath": .string, "fileName": .string,
        "isFinished": .boolean, "thumbnail": .binary,
    ]
    private let task: [String: AttributeType] = ["taskDate": .string, "remindTime": .string, "priority": .integer32]

    private func type(_ text: String, _ attributes: [String: AttributeType]) throws -> AttributeType? {
        try MappingExpression(parsing: text, line: 4, column: 13).resultType(attributes: attributes)
    }

    private func typeError(_ text: String, _ attributes: [String: AttributeType]) -> ExpressionTypeError? {
        do {
            _ = try type(text, attributes)
            return nil
        } catch let error as ExpressionTypeError {
            return error
        } catch {
            return nil
        }
    }

    @Test("the flagship rules have the destination types")
    func flagship() throws {
        #expect(try type("round(decimal(fileSize) * 1048576)", upload) == .integer64)
        #expect(try type("unixtime(time)", upload) == .date)
        #expect(try type("fileType if fileType between 0 and 5 else 5", upload) == .integer64)
        #expect(try type("uuid(time, remotePath, fileName)", upload) == .uuid)
        #expect(try type("date(taskDate, \"yyyy-MM-dd\", $zone)", task) == .date)
        #expect(try type("date(taskDate + \" \" + remindTime, \"yyyy-MM-dd HH:mm\", $zone) if remindTime != \"\" else nil", task) == .date)
    }

    @Test("result types of operators and functions")
    func resultTypes() throws {
        #expect(try type("7 / 2", [:]) == .decimal)
        #expect(try type("1 + 2", [:]) == .integer64)
        #expect(try type("double(\"1\") * 2", [:]) == .double)
        #expect(try type("fileName + 1", upload) == .string)
        #expect(try type("not isFinished or fileType in [1, 2]", upload) == .boolean)
        #expect(try type("nil", [:]) == nil)
        #expect(try type("fileName if isFinished else 1", upload) == nil)
        #expect(try type("coalesce(nil, fileName, \"x\")", upload) == .string)
        #expect(try type("lookup(fileType, {0: \"a\", 1: \"b\"}, nil)", upload) == .string)
        #expect(try type("unixtime(time) + 60", upload) == .date)
        #expect(try type("length(trim(fileName))", upload) == .integer64)
        #expect(try type("prefix(fileName, 4) + \"...\"", upload) == .string)
        #expect(try type("substring(fileName, fileType, 2)", upload) == .string)
        #expect(throws: ExpressionTypeError.self) { try type("suffix(fileName, \"2\")", upload) }
        #expect(throws: ExpressionTypeError.self) { try type("prefix(fileType, 2)", upload) }
    }

    @Test("an unknown attribute names itself and the closest known ones, at its column")
    func unknownAttribute() {
        let error = typeError("round(decimal(fileSiz) * 1048576)", upload)
        #expect(error?.line == 4)
        #expect(error?.column == 27)
        #expect(error?.message.hasPrefix("unknown attribute 'fileSiz' (closest: fileSize, fileName, fileType") == true)
        #expect(typeError("x", [:])?.message == "unknown attribute 'x' (the source has no attributes)")
    }

    @Test("operations that fail for every record are load-time errors")
    func mismatches() {
        #expect(typeError("round(remotePath)", upload)?.message == "round(remotePath) needs a number, but remotePath is a String")
        #expect(typeError("round(remotePath)", upload)?.column == 19)
        #expect(typeError("fileType == \"1\"", upload)?.message == "fileType == \"1\": cannot compare an Integer with a String")
        #expect(typeError("isFinished * 2", upload)?.message == "isFinished * 2: cannot apply '*' to a Boolean and an Integer")
        #expect(typeError("trim(time)", upload)?.message == "trim(time) needs text, but time is an Integer")
        #expect(typeError("fileSize if fileType else nil", upload)?.message
            == "fileSize if fileType else nil needs a condition, but fileType is an Integer")
        #expect(typeError("date(fileType, \"yyyy-MM-dd\")", upload)?.message.contains("needs text") == true)
        #expect(typeError("integer(thumbnail)", upload) != nil)
        #expect(typeError("lookup(fileName, {1: 2})", upload)?.message == "lookup(fileName, {1: 2}): no key of the table can match a String")
        #expect(typeError("lookup(fileName, {1: 2, \"a\": 3})", upload) == nil)
        #expect(typeError("isFinished < true", upload) != nil)
        #expect(typeError("fileSize < remotePath and isFinished == true", upload) == nil)
    }
}
