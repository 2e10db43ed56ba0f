/// SHA-256 (FIPS 180-4), streaming: feed bytes with `update` in any number of pieces, then
/// `finalize` for the 32-byte digest. Core Data's version hashes are SHA-256 digests.
public struct SHA256 {
    private var engine = SHA2Engine<Parameters>()

    /// Digest length in bytes.
    public static let byteCount = 32

    /// A hasher with nothing hashed yet.
    public init() {}

    /// Appends `bytes` to the message.
    public mutating func update(_ bytes: some Collection<UInt8>) { engine.update(bytes) }

    /// Appends the bytes of `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) { engine.update(buffer) }

    /// The 32-byte digest of everything passed to `update`.
    public consuming func finalize() -> [UInt8] { engine.finalize() }

    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes `message` in one call without allocating, for hot loops: writes the first
    /// `digest.count` bytes of its digest (all 32 when the buffer is that large) into `digest`.
    public static func hash(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        Parameters.digest(of: message, into: digest)
    }

    enum Parameters: SHA2Variant {
        typealias Word = UInt32
        static var blockByteCount: Int { 64 }
        static var lengthByteCount: Int { 8 }
        static let initialHash: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        static let roundConstants: [UInt32] = [
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
        ]
        @inline(__always) static func bigSigma0(_ x: UInt32) -> UInt32 {
            x.rotatedRight(by: 2) ^ x.rotatedRight(by: 13) ^ x.rotatedRight(by: 22)
        }
        @inline(__always) static func bigSigma1(_ x: UInt32) -> UInt32 {
            x.rotatedRight(by: 6) ^ x.rotatedRight(by: 11) ^ x.rotatedRight(by: 25)
        }
        @inline(__always) static func smallSigma0(_ x: UInt32) -> UInt32 {
            x.rotatedRight(by: 7) ^ x.rotatedRight(by: 18) ^ (x >> 3)
        }
        @inline(__always) static func smallSigma1(_ x: UInt32) -> UInt32 {
            x.rotatedRight(by: 17) ^ x.rotatedRight(by: 19) ^ (x >> 10)
        }
    }
}
