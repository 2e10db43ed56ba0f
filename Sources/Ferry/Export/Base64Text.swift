import FoundationEssentials

/// Base64 text of bytes and back, for manifests and binary values.
enum Base64Text {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func decode(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { [UInt8]($0) } }
}
