import CSQLite

/// The SQL functions compiled predicates call, registered on a connection with `register(on:)`:
///
/// - `ferry_fold(text, flags)`: `[c]` (flag 1) and `[d]` (flag 2) folding, see `StringFolding`.
/// - `ferry_begins_with(text, prefix)`, `ferry_ends_with(text, suffix)`, `ferry_contains(text, part)`:
///   1 or 0 by UTF-8 bytes (an empty part is always found).
/// - `ferry_matches(text, pattern, flags)`: 1 when the regular expression matches the whole text.
///   Swift `Regex` syntax (close to ICU's, which Core Data uses) at Unicode-scalar level, like ICU;
///   flag 1 ignores case, flag 2 removes diacritics from the text first. Compiled patterns are
///   cached per connection.
///
/// Each returns NULL when its text is NULL, so `NOT` and `ALL` can treat NULL as false.
public enum PredicateSQLFunctions {
    /// Registers the functions on `database` (again is harmless: the newer registration wins).
    public static func register(on database: SQLiteDatabase) throws(SQLiteError) {
        let handle = try database.openHandle(sql: nil)
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        var status = sqlite3_create_function_v2(handle, "ferry_fold", 2, flags, nil, { context, _, arguments in
            guard let context, let text = argumentBytes(arguments, 0) else { return sqlite3_result_null(context) }
            var bytes = text
            let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(argument(arguments, 1))))
            if let folded = StringFolding.fold(&bytes, options) {
                var folded = folded
                folded.withUTF8 { resultText(context, UnsafeRawBufferPointer($0)) }
            } else {
                bytes.withUnsafeBytes { resultText(context, $0) }
            }
        }, nil, nil, nil)
        for (name, mode) in [("ferry_begins_with", 1), ("ferry_ends_with", 2), ("ferry_contains", 3)] where status == SQLITE_OK {
            status = sqlite3_create_function_v2(handle, name, 2, flags, UnsafeMutableRawPointer(bitPattern: mode), { context, _, arguments in
                guard let context, let text = argumentBytes(arguments, 0), let part = argumentBytes(arguments, 1) else {
                    return sqlite3_result_null(context)
                }
                let found = switch Int(bitPattern: sqlite3_user_data(context)) {
                case 1: text.starts(with: part)
                case 2: text.reversed().starts(with: part.reversed())
                default: part.isEmpty || text.firstRange(of: part) != nil
                }
                sqlite3_result_int(context, found ? 1 : 0)
            }, nil, nil, nil)
        }
        if status == SQLITE_OK {
            let cache = Unmanaged.passRetained(RegexCache()).toOpaque()
            status = sqlite3_create_function_v2(handle, "ferry_matches", 3, flags, cache, { context, _, arguments in
                guard let context, let text = argumentBytes(arguments, 0), let pattern = argumentBytes(arguments, 1),
                      let user = sqlite3_user_data(context) else { return sqlite3_result_null(context) }
                let cache = Unmanaged<RegexCache>.fromOpaque(user).takeUnretainedValue()
                let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(argument(arguments, 2))))
                do {
                    let matched = try cache.matches(String(decoding: text, as: UTF8.self),
                                                    pattern: String(decoding: pattern, as: UTF8.self), options: options)
                    sqlite3_result_int(context, matched ? 1 : 0)
                } catch {
                    sqlite3_result_error(context, "invalid MATCHES pattern", -1)
                }
            }, nil, nil, { user in
                if let user { Unmanaged<RegexCache>.fromOpaque(user).release() }
            })
        }
        guard status == SQLITE_OK else { throw database.error(status) }
    }
}

private func argument(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> OpaquePointer? {
    arguments?[index]
}

/// The UTF-8 bytes of a text argument, nil for NULL.
private func argumentBytes(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> [UInt8]? {
    guard let value = argument(arguments, index), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    guard let text = sqlite3_value_text(value) else { return [] }
    return Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
}

private func resultText(_ context: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
    if let base = bytes.baseAddress, !bytes.isEmpty {
        sqlite3_result_text64(context, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), transientDestructor, UInt8(SQLITE_UTF8))
    } else {
        sqlite3_result_text(context, "", 0, transientDestructor)
    }
}
