@testable import FerryMigration
import FerryModel
import Testing

/// A record too large for a SQLite row is refused before SQLite sees it, with Ferry's reason.
@Suite("store row size")
struct StoreRowSizeTests {
    @Test("text and blob bytes count in full, other values and the header at their most")
    func sizes() {
        let values: [AttributeValue] = [.string("héllo"), .binary([1, 2, 3]), .integer(5), .null, .uuid(UUIDBytes([UInt8](repeating: 0, count: 16))!)]
        #expect(StoreRowSize.bytes(of: values) == 9 * 6 + 6 + 3 + 8 + 8 + 16)
        #expect(StoreRowSize.problem(values) == nil)
        #expect(StoreRowSize.problem(values, limit: 90) == "the record holds 95 bytes, more than SQLite stores in one row (90)")
        #expect(StoreRowSize.maxRowBytes == 1_000_000_000)
    }
}
