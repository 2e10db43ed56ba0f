import Testing
import FerryModel

/// FIPS 180 / NIST example vectors (the messages of the SHA examples document) and streaming checks.
@Suite struct SHA2Tests {
    struct Vector: Sendable, CustomStringConvertible {
        let name: String
        let message: [UInt8]
        let sha256: String
        let sha512: String
        var description: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "empty", message: [],
            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            sha512: "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        Vector(
            name: "abc", message: Array("abc".utf8),
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        Vector(
            name: "448 bits", message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            sha256: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            sha512: "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
        Vector(
            name: "896 bits",
            message: Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
            sha256: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
            sha512: "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
        Vector(
            name: "one million a", message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            sha256: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            sha512: "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"),
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// 200 bytes that cross SHA-256's and SHA-512's block boundaries several times.
    static let twoHundredBytes: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    @Test(arguments: vectors)
    func sha256OneShot(_ vector: Vector) {
        #expect(Self.hex(SHA256.hash(vector.message)) == vector.sha256)
    }

    @Test(arguments: vectors)
    func sha512OneShot(_ vector: Vector) {
        #expect(Self.hex(SHA512.hash(vector.message)) == vector.sha512)
    }

    @Test(arguments: vectors)
    func rawBufferUpdateMatches(_ vector: Vector) {
        var sha256 = SHA256()
        var sha512 = SHA512()
        vector.message.withUnsafeBytes {
            sha256.update($0)
            sha512.update($0)
        }
        #expect(Self.hex(sha256.finalize()) == vector.sha256)
        #expect(Self.hex(sha512.finalize()) == vector.sha512)
    }

    @Test func nonContiguousCollectionMatches() {
        let message = Self.vectors[4].message
        // A lazy map has no contiguous storage, so the bounce-buffer path is taken.
        let lazyBytes = message.lazy.map { $0 }
        #expect(Self.hex(SHA256.hash(lazyBytes)) == Self.vectors[4].sha256)
        #expect(Self.hex(SHA512.hash(lazyBytes)) == Self.vectors[4].sha512)
    }

    @Test func sha256SplitAtEveryOffsetMatchesOneShot() {
        let message = Self.twoHundredBytes
        let expected = SHA256.hash(message)
        for split in 0...message.count {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == expected, "split at \(split)")
        }
    }

    @Test func sha512SplitAtEveryOffsetMatchesOneShot() {
        let message = Self.twoHundredBytes
        let expected = SHA512.hash(message)
        for split in 0...message.count {
            var hasher = SHA512()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == expected, "split at \(split)")
        }
    }

    @Test func byteByByteUpdatesMatchOneShot() {
        let message = Self.twoHundredBytes
        var sha256 = SHA256()
        var sha512 = SHA512()
        for byte in message {
            sha256.update(CollectionOfOne(byte))
            sha512.update(CollectionOfOne(byte))
        }
        #expect(sha256.finalize() == SHA256.hash(message))
        #expect(sha512.finalize() == SHA512.hash(message))
    }

    /// Messages of every length around the padding boundaries (55/56/63/64 for SHA-256,
    /// 111/112/127/128 for SHA-512) give distinct digests of the right size.
    @Test func paddingBoundaryLengthsGiveDistinctDigests() {
        let lengths = Array(50...140)
        let sha256Digests = Set(lengths.map { SHA256.hash(Self.twoHundredBytes[..<$0]) })
        let sha512Digests = Set(lengths.map { SHA512.hash(Self.twoHundredBytes[..<$0]) })
        #expect(sha256Digests.count == lengths.count)
        #expect(sha512Digests.count == lengths.count)
        #expect(sha256Digests.allSatisfy { $0.count == SHA256.byteCount })
        #expect(sha512Digests.allSatisfy { $0.count == SHA512.byteCount })
    }

    /// The allocation-free entry gives the NIST digests.
    @Test(arguments: vectors)
    func sha256IntoBufferMatchesVectors(_ vector: Vector) {
        #expect(Self.hex(Self.hashIntoBuffer(vector.message, digestBytes: 32)) == vector.sha256)
    }

    /// Every length from 0 to 200 (one and two padding blocks, messages of several blocks)
    /// hashes into a buffer as the streaming hasher does; a short buffer gets the digest's prefix.
    @Test func sha256IntoBufferMatchesStreamingAtEveryLength() {
        for length in 0...Self.twoHundredBytes.count {
            let message = Array(Self.twoHundredBytes[..<length])
            let expected = SHA256.hash(message)
            #expect(Self.hashIntoBuffer(message, digestBytes: 32) == expected, "length \(length)")
            #expect(Self.hashIntoBuffer(message, digestBytes: 7) == Array(expected.prefix(7)), "length \(length)")
        }
        #expect(Self.hashIntoBuffer([1, 2, 3], digestBytes: 40).suffix(8) == [UInt8](repeating: 0xEE, count: 8))
    }

    static func hashIntoBuffer(_ message: [UInt8], digestBytes: Int) -> [UInt8] {
        var digest = [UInt8](repeating: 0xEE, count: digestBytes)
        message.withUnsafeBytes { input in digest.withUnsafeMutableBytes { SHA256.hash(input, into: $0) } }
        return digest
    }
}
