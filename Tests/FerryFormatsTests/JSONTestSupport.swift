import FerryFormats
import FerryTestSupport

/// Shared helpers for the JSON tests.
enum JSONTestSupport {
    static let testSuite = TestPaths.corpus + "/conformance/JSONTestSuite"
    static let foundationJSON = TestPaths.corpus
        + "/conformance/swift-foundation-test-resources/Tests/FoundationEssentialsTests/Resources/JSON"

    /// Every record of `bytes` read with `layout`, through a buffer of `bufferSize` bytes.
    static func records(_ bytes: [UInt8], layout: JSONRecordLayout = .automatic, bufferSize: Int = 64 * 1024) throws -> [JSONRecord] {
        var reader = JSONReader(source: MemoryByteSource(bytes, name: "test.json"), layout: layout, bufferSize: bufferSize)
        var records: [JSONRecord] = []
        while let record = try reader.nextRecord() { records.append(record) }
        return records
    }

    static func records(_ text: String, layout: JSONRecordLayout = .automatic, bufferSize: Int = 64 * 1024) throws -> [JSONRecord] {
        try records(Array(text.utf8), layout: layout, bufferSize: bufferSize)
    }

    /// The error reading `text` throws, or `nil` when it reads cleanly.
    static func error(_ text: String, layout: JSONRecordLayout = .automatic) -> JSONError? {
        do {
            _ = try records(text, layout: layout)
            return nil
        } catch let error as JSONError {
            return error
        } catch {
            return nil
        }
    }

    /// Parses one whole JSON text from a file; `true` when accepted.
    static func accepts(_ path: String, bufferSize: Int = 64 * 1024) throws -> Bool {
        do {
            _ = try JSONValue(parsing: try FileByteSource(path: path), bufferSize: bufferSize)
            return true
        } catch is JSONError {
            return false
        } catch is ByteSourceError {
            return false  // invalid UTF-16 behind a byte order mark
        }
    }

    /// A member list for `.object`, so expected values read naturally.
    static func object(_ members: (String, JSONValue)...) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) })
    }

    static func number(_ text: String) throws -> JSONNumber {
        guard case let .number(number) = try JSONValue(parsing: Array(text.utf8)) else {
            throw JSONError.syntax(.invalidNumber, at: JSONPosition(source: text, line: 1, column: 1, byteOffset: 0))
        }
        return number
    }
}
