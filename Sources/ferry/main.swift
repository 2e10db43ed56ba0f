import FerryFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Whatever a verb builds aside is removed when SIGINT, SIGTERM, SIGHUP or SIGPIPE stops it (one
// that arrives while an output is put in place waits for its end), and a write
// past `ulimit -f` is an error with a message instead of a silent SIGXFSZ.
TemporaryFiles.removeOnSignal()
WriteFailure.reportInsteadOfKilling()
switch ArgumentEncoding.arguments() {
case .success(let arguments):
    exit(Dispatcher.run(arguments).rawValue)
case .failure(let error):
    Terminal.error("ferry: \(error.description)\n")
    exit(ExitCode.usage.rawValue)
}
