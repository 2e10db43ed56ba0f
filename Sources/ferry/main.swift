#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
