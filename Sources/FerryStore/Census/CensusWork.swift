import FerryFormats

/// A census (`StoreCensus`) taken while a job reads the store's records: begun by
/// `CoreDataStoreReader.startCensus()`, its counts are taken by `wait()`.
///
/// Counting is a second scan of every table; on a connection of its own it runs on the other
/// core while the job reads, instead of before it. That connection must read exactly the bytes
/// the reader reads (`SQLiteDatabase.sameBytes`); where it cannot (a live WAL store, where it
/// might see a later commit) the census is taken at once on the reader's connection.
public final class CensusWork: Sendable {
    private enum State: Sendable {
        case counted(Result<StoreCensus, StoreReaderError>)
        case counting(BackgroundWork<StoreCensus, StoreReaderError>)
    }
    private let state: State

    /// Counts on a new connection opened as `reopening` says, on a worker thread.
    init(reopening: SQLiteDatabase.Reopening) {
        state = .counting(BackgroundWork {
            Result { () throws(StoreReaderError) in
                try StoreReaderError.sqlite { () throws(SQLiteError) in
                    let database = try SQLiteDatabase(reopening: reopening)
                    defer { try? database.close() }
                    return try StoreCensus(database: database)
                }
            }
        })
    }

    /// A census already taken (or its failure).
    init(counted: Result<StoreCensus, StoreReaderError>) {
        state = .counted(counted)
    }

    /// The counts when they are done; nil while they are being taken (never waits).
    public var countedSoFar: StoreCensus? {
        switch state {
        case .counted(let result): try? result.get()
        case .counting(let work): try? work.outcomeIfDone?.get()
        }
    }

    /// Waits for the counts.
    public func wait() throws(StoreReaderError) -> StoreCensus {
        switch state {
        case .counted(let result): try result.get()
        case .counting(let work): try work.wait()
        }
    }
}
