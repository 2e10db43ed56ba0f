#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Arguments as the process was given them, refused when one is not valid UTF-8.
///
/// `CommandLine.arguments` repairs such bytes to U+FFFD without a word: `update --set
/// title=$'A\xffB'` stored "A�B" with exit 0, a `--where` matched rows holding U+FFFD that the
/// user never named, and a path would name another file. A file's name in another encoding is
/// given through a link or a shell glob of a valid name.
enum ArgumentEncoding {
    /// The arguments after the program's name, or the usage error naming the first that is not
    /// valid UTF-8 (its position and its bytes in hex).
    static func arguments() -> Result<[String], UsageError> {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let text = String(validatingCString: pointer) else {
                let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
                let shown = bytes.prefix(40).map { byte in (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }.joined(separator: " ")
                return .failure(UsageError("argument \(index) is not valid UTF-8 (bytes \(shown)\(bytes.count > 40 ? " …" : "")): "
                    + "nothing was read or written"))
            }
            arguments.append(text)
        }
        return .success(arguments)
    }
}
