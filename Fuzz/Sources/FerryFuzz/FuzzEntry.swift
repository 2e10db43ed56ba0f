#if canImport(Glibc)
import Glibc
#endif

/// The target this process runs, named by `FERRY_FUZZ_TARGET` (see `FuzzTarget`); read once.
private let selectedTarget: FuzzTarget = {
    guard let name = getenv("FERRY_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
        let message = Array("FerryFuzz: set FERRY_FUZZ_TARGET to one of: \(names)\n".utf8)
        _ = message.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: one input, run through the selected parser. A crash, a trap (a failed
/// precondition, an index out of range, an overflow), a memory error or a hang is a finding; a
/// thrown error is the parser refusing the input, which is what it should do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}

/// libFuzzer's driver, for a `main` of our own (libFuzzer's `FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                             _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable with `main` defined as `<module>_main`; this one hands the
/// command line to libFuzzer, as libFuzzer's own `main` would.
@_cdecl("FerryFuzz_main")
public func ferryFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
