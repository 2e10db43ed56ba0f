import FerryFormats
import FerryStore

/// A store's own counts for a load's verification (`TransferCounts.store`, and the census they
/// come from: `CoreDataStoreReader.startCensus()`, begun when the rows began to go out), taken on
/// a worker thread on the reader's connection, inside its read transaction, while the caller has
/// PostgreSQL count what it holds: the check costs the longer of the two counts instead of both.
///
/// The caller must not use the store's reader or anything made from it until `wait()` returns.
struct StoreSideCount {
    private let work: BackgroundWork<Counts, StoreReaderError>

    struct Counts: Sendable {
        let census: StoreCensus
        let transfer: TransferCounts
    }

    init(census: CensusWork, reader: StoreRecordReader, layout: PostgresLayout) {
        let lent = Lent(reader: reader)
        work = BackgroundWork {
            Result { () throws(StoreReaderError) in
                let census = try census.wait()
                return Counts(census: census, transfer: try TransferCounts.store(census: census, reader: lent.reader, layout: layout))
            }
        }
    }

    /// Waits for the counts.
    func wait() throws(StoreReaderError) -> Counts {
        try work.wait()
    }

    /// The reader lent to the worker. `@unchecked Sendable`: the caller leaves it alone until
    /// `wait()` has returned, so one thread at a time uses its connection.
    private final class Lent: @unchecked Sendable {
        let reader: StoreRecordReader

        init(reader: StoreRecordReader) {
            self.reader = reader
        }
    }
}
