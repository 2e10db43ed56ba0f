import CLibPQ
import FerryFormats

/// Sends the blocks of a COPY to the server on a thread of its own (`SerialWorker`), so that the
/// caller encodes the next rows while the server takes these; when the system cannot make a
/// thread, each block is sent by the caller as it is handed over.
///
/// libpq sends a block before `PQputCopyData` returns, waiting while the socket is full; a
/// socket holds a fraction of a block, so a caller that sent its own blocks left the server
/// waiting for each next block while it encoded it. At most `inFlight` blocks wait here, which
/// bounds memory. A failure is thrown by the next `send` or by `drain`.
final class CopyDataSender: @unchecked Sendable {
    // The connection is used by `worker`'s pieces only, between `send` and the `drain` that ends
    // the COPY's data: the caller touches it again only after `drain` has waited for them.
    // That is what makes the unchecked Sendable sound.
    private let connection: PostgresConnection
    private let worker = SerialWorker<PostgresError>(capacity: CopyDataSender.inFlight)
    /// The largest COPY data message sent.
    static let messageBytes = 1 << 20
    private static let inFlight = 3

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Hands `block` to the sending thread (leave it alone afterwards, and take the next one from
    /// `emptyBlock`). Throws the failure of an earlier block.
    func send(_ block: CopyBlock) throws(PostgresError) {
        try worker.submit { [self] () throws(PostgresError) in
            // In messages of at most `messageBytes`: libpq copies each message whole into its
            // output buffer, which keeps its largest size until the connection closes (a block
            // holding a 300 MB blob sent in one message left 300 MB there). COPY data may be
            // split anywhere between messages.
            var offset = 0
            while offset < block.count {
                let length = min(Self.messageBytes, block.count - offset)
                guard PQputCopyData(connection.handle, (block.base + offset).assumingMemoryBound(to: CChar.self), Int32(length)) == 1 else {
                    throw connection.failure()
                }
                offset += length
            }
            connection.copyBlocks.give(block)
        }
    }

    /// An empty block with room for `capacity` bytes: one already sent if the connection kept one.
    func emptyBlock(capacity: Int) -> CopyBlock {
        connection.copyBlocks.take(capacity: capacity)
    }

    /// Waits until every block handed over is sent; throws the first failure.
    func drain() throws(PostgresError) {
        try worker.drain()
    }
}
