/// The parts of a SHA-2 hash function (FIPS 180-4) that differ between SHA-256 and SHA-512:
/// the word size, the constants and the four sigma functions. Everything else — message schedule,
/// compression rounds, buffering and padding — is shared by ``SHA2Engine``.
protocol SHA2Variant {
    associatedtype Word: FixedWidthInteger & UnsignedInteger

    /// Bytes per message block: 64 for SHA-256, 128 for SHA-512.
    static var blockByteCount: Int { get }
    /// Bytes of the big-endian message length that ends the padding: 8 or 16.
    static var lengthByteCount: Int { get }
    /// The eight initial hash words H(0).
    static var initialHash: [Word] { get }
    /// The round constants K; their count is the number of rounds (64 or 80).
    static var roundConstants: [Word] { get }

    static func bigSigma0(_ x: Word) -> Word
    static func bigSigma1(_ x: Word) -> Word
    static func smallSigma0(_ x: Word) -> Word
    static func smallSigma1(_ x: Word) -> Word
}

extension FixedWidthInteger {
    /// Rotates right by `count` bits (0 < count < bitWidth).
    @inline(__always)
    func rotatedRight(by count: Int) -> Self {
        (self &>> count) | (self &<< (Self.bitWidth - count))
    }
}

extension SHA2Variant {
    /// Runs the compression function over `blocks`, whose size is a multiple of the block size,
    /// updating `state` (eight words).
    static func compress(_ state: inout [Word], blocks: UnsafeRawBufferPointer) {
        state.withUnsafeMutableBufferPointer { compress($0, blocks: blocks) }
    }

    /// The digest of `message` (one call, no heap allocation), its first `digest.count` bytes
    /// (at most the full digest) written to `digest`.
    static func digest(of message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        let wordBytes = Word.bitWidth / 8
        withUnsafeTemporaryAllocation(of: Word.self, capacity: 8) { state in
            initialHash.withUnsafeBufferPointer { initial in
                for index in 0..<8 { state[index] = initial[index] }
            }
            let fullBytes = message.count - message.count % blockByteCount
            if fullBytes > 0 { compress(state, blocks: UnsafeRawBufferPointer(rebasing: message[..<fullBytes])) }
            // The rest, 0x80, zeros, and the big-endian length in bits fill one or two blocks.
            withUnsafeTemporaryAllocation(byteCount: 2 * blockByteCount, alignment: 8) { tail in
                let rest = message.count - fullBytes
                let padded = rest + 1 + lengthByteCount <= blockByteCount ? blockByteCount : 2 * blockByteCount
                tail.initializeMemory(as: UInt8.self, repeating: 0)
                if rest > 0, let source = message.baseAddress, let target = tail.baseAddress {
                    target.copyMemory(from: source + fullBytes, byteCount: rest)
                }
                tail[rest] = 0x80
                let bits = UInt64(message.count) &<< 3
                for index in 0..<8 { tail[padded - 1 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
                if lengthByteCount == 16 { tail[padded - 9] = UInt8(truncatingIfNeeded: UInt64(message.count) >> 61) }
                compress(state, blocks: UnsafeRawBufferPointer(rebasing: tail[..<padded]))
            }
            for index in 0..<min(digest.count, 8 * wordBytes) {
                digest[index] = UInt8(truncatingIfNeeded: state[index / wordBytes] >> (8 * (wordBytes - 1 - index % wordBytes)))
            }
        }
    }

    /// Runs the compression function over `blocks`, whose size is a multiple of the block size,
    /// updating `state` (eight words).
    static func compress(_ state: UnsafeMutableBufferPointer<Word>, blocks: UnsafeRawBufferPointer) {
        let rounds = roundConstants.count
        let wordBytes = Word.bitWidth / 8
        let wordsPerBlock = blockByteCount / wordBytes
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: Word.self, capacity: rounds) { w in
                var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
                var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
                var offset = 0
                while offset + blockByteCount <= blocks.count {
                    for t in 0..<wordsPerBlock {
                        w[t] = Word(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + t * wordBytes, as: Word.self))
                    }
                    for t in wordsPerBlock..<rounds {
                        w[t] = smallSigma1(w[t - 2]) &+ w[t - 7] &+ smallSigma0(w[t - 15]) &+ w[t - 16]
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for t in 0..<rounds {
                        let choose = (e & f) ^ (~e & g)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t1 = h &+ bigSigma1(e) &+ choose &+ k[t] &+ w[t]
                        let t2 = bigSigma0(a) &+ majority
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    offset += blockByteCount
                }
                state[0] = h0; state[1] = h1; state[2] = h2; state[3] = h3
                state[4] = h4; state[5] = h5; state[6] = h6; state[7] = h7
            }
        }
    }
}
