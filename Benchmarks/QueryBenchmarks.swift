import Ferry
import Foundation

/// `ferry query` over a store of `rows` uploads vs the same SELECT in the sqlite3 CLI, both
/// writing CSV with a header to /dev/null. Register with `QueryBenchmarks.query()` in `Catalog.all()`.
enum QueryBenchmarks {
    static let predicate = "fileType >= 1 AND time > 1300000000"
    /// The SELECT `ferry query` compiles `predicate` to, written by hand, with the same columns
    /// (booleans as true/false like ferry; ferry also writes dates ISO 8601 and blobs base64,
    /// which this entity does not have apart from imageData, NULL in the clean uploads).
    static let sql = """
        SELECT Z_PK, 'UploadEntity' AS entity, ZFILETYPE AS fileType,
               CASE ZFINISHSTATUS WHEN 1 THEN 'true' WHEN 0 THEN 'false' END AS finishStatus, ZTIME AS time,
               ZFILENAME AS fileName, ZFILESIZE AS fileSize, ZURLPATH AS urlPath, ZIMAGEDATA AS imageData
        FROM ZUPLOADENTITY WHERE ZFILETYPE >= 1 AND ZTIME > 1300000000 ORDER BY Z_PK
        """

    static func query() -> Benchmark {
        Benchmark(
            name: "query-csv",
            summary: "ferry query --format csv with a two-term predicate over an uploads store vs the hand-written SELECT in sqlite3 -csv -header (both to /dev/null)",
            targets: [.speedup(atLeast: 1 / 1.5, issue: "query")],
            prepare: { try $0.uploadStore() },
            ferry: { w in
                .shell("\(w.ferry) query \(w.uploadStorePath) --entity UploadEntity --where '\(predicate)' --format csv > /dev/null")
            },
            reference: { w in
                .shell("sqlite3 -csv -header \(w.uploadStorePath) \"\(sql.replacingOccurrences(of: "\n", with: " "))\" > /dev/null")
            })
    }
}
