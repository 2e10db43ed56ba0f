/// Reading a connection text as a person and as libpq would, before libpq sees it: which of its
/// parts may be passwords (to scrub from every message), and whether libpq would misread it so
/// that a password lands where messages show it (a host, a database name, a quoted keyword).
enum ConnectionText {
    /// The prefixes libpq reads as a URI; any other text is `key=value` pairs to it.
    static let uriPrefixes = ["postgresql://", "postgres://"]

    /// Why libpq would misread `text` and show a part of its password, in words that quote none
    /// of it; nil when it reads the text as written.
    ///
    /// - A URI of another scheme (`jdbc:postgresql://…`, `postgresql+psycopg2://…`): libpq takes it
    ///   for `key=value` pairs and quotes everything before its first `=` as an unknown keyword.
    /// - A URI with an `@` libpq does not read as the end of the user and password: libpq ends
    ///   them at the first `@` before the first `/`, so a password holding `@` (or `/`, `?`
    ///   followed by an `@`) runs on into the host, port, database name or a query keyword,
    ///   which messages show. An `@` is kept only in a query parameter's value (`?user=ann@corp`).
    /// - `key=value` pairs whose keyword is not a word (`user:pw@host/db?sslmode=require`, a URI
    ///   without its scheme): libpq quotes the keyword.
    static func misreading(of text: String) -> String? {
        let encode = "percent-encode '/', '?', '#' and '@' in them (%2F, %3F, %23, %40)"
        if let scheme = text.firstRange(of: "://") {
            guard uriPrefixes.contains(where: text.hasPrefix) else {
                return "a URI is read only when it starts with postgresql:// or postgres:// (not jdbc:…, postgresql+driver:…, "
                    + "or a scheme in capitals): libpq would read this one as key=value pairs, its password among them; "
                    + "write it as postgresql://user:password@host:port/database"
            }
            let rest = text[scheme.upperBound...]
            let userEnd = rest.firstIndex { $0 == "@" || $0 == "/" }
            let afterUser = userEnd.map { rest[$0] == "@" ? rest[rest.index(after: $0)...] : rest } ?? rest
            let path = afterUser.prefix { $0 != "?" }
            let query = afterUser.dropFirst(path.count).dropFirst()
            let keywordsHoldAt = query.split(separator: "&").contains { $0.prefix { $0 != "=" }.contains("@") }
            guard !path.contains("@"), !keywordsHoldAt else {
                return "an '@' stands where libpq does not end the user and password (a second '@', or one after a '/'), so it would read "
                    + "a part of them as the host, port or database name (and show it): " + encode
            }
            return nil
        }
        guard keywords(of: text).allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) else {
            return "neither a postgresql:// URI nor key=value pairs (host=… dbname=…): libpq would read a part of it, perhaps a password, "
                + "as a keyword and show it; write it as postgresql://user:password@host:port/database"
        }
        return nil
    }

    /// The keywords of `key=value` pairs as libpq reads them: each up to a space or `=`, its value
    /// after the `=` in single quotes (backslash escapes) or up to a space.
    private static func keywords(of text: String) -> [Substring] {
        var keywords: [Substring] = []
        var rest = text.drop { $0.isWhitespace }
        while !rest.isEmpty {
            let keyword = rest.prefix { !$0.isWhitespace && $0 != "=" }
            keywords.append(keyword)
            rest = rest.dropFirst(keyword.count).drop { $0.isWhitespace }
            guard rest.first == "=" else { break }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            var quoted = false, escaped = false
            if rest.first == "'" { quoted = true; rest = rest.dropFirst() }
            while let character = rest.first {
                rest = rest.dropFirst()
                if escaped { escaped = false } else if character == "\\" { escaped = true }
                else if quoted ? character == "'" : character.isWhitespace { break }
            }
            rest = rest.drop { $0.isWhitespace }
        }
        return keywords
    }

    /// The parts of `text` that may be passwords, as written and percent-decoded, whichever way
    /// it is read: a URI's (or URI-like text's) user-info password up to the first `@` (as libpq
    /// reads it) and up to the last (as a person may have meant it), and every
    /// `password=`/`sslpassword=` value of `key=value` pairs or a URI's query (quoted or not, up
    /// to a space and up to a `&`).
    static func passwords(in text: String) -> [String] {
        var found: [String] = []
        // User-info: after the scheme's `://` (or a mistyped `postgresql:` and its slashes), or
        // from the start of a text with none (`user:pw@host/db`).
        var start = text[...], schemeless = false
        if let scheme = text.firstRange(of: "://") {
            start = text[scheme.upperBound...]
        } else if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0 == "+" }),
                  text[text.index(after: colon)...].first == "/" {
            start = text[text.index(after: colon)...].drop { $0 == "/" }
        } else {
            schemeless = true
        }
        for at in [start.firstIndex(of: "@"), start.lastIndex(of: "@")].compactMap({ $0 }) {
            let userInfo = start[..<at]
            // In key=value pairs (`host=h user=ann@corp`) what stands before an `@` is no user-info.
            if schemeless, userInfo.contains(where: { $0.isWhitespace || $0 == "=" }) { continue }
            if let separator = userInfo.firstIndex(of: ":") { found.append(String(userInfo[userInfo.index(after: separator)...])) }
        }
        found += keywordValues(named: "password", in: text)
        return (found + found.compactMap(percentDecoded)).filter { !$0.isEmpty }
    }

    /// The values that follow `name` and an `=` (spaces around it allowed) anywhere in `text`,
    /// so `sslpassword=` too: a value in single quotes (backslash escapes undone), or unquoted
    /// up to a space, and up to a space or `&` (a URI's query).
    private static func keywordValues(named name: String, in text: String) -> [String] {
        var values: [String] = []
        var searched = text[...]
        while let range = searched.firstRange(of: name) {
            searched = searched[range.upperBound...]
            let afterName = searched.drop { $0 == " " }
            guard afterName.first == "=" else { continue }
            let value = afterName.dropFirst().drop { $0 == " " }
            if value.first == "'" {
                var unquoted = "", escaped = false
                for character in value.dropFirst() {
                    if escaped { unquoted.append(character); escaped = false } else if character == "\\" { escaped = true }
                    else if character == "'" { break } else { unquoted.append(character) }
                }
                values.append(unquoted)
            }
            values.append(String(value.prefix { !$0.isWhitespace }))
            values.append(String(value.prefix { !$0.isWhitespace && $0 != "&" }))
        }
        return values
    }

    /// `text` with its `%XX` escapes decoded; nil when it has none or one is not valid UTF-8.
    private static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
               let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A libpq parse error without what it quotes of the text (everything between its first
    /// and last double quote): libpq quotes keywords, values and URI parts, which may be a part
    /// of a password no reading of the text finds.
    static func withoutQuotedText(_ message: String) -> String {
        guard let first = message.firstIndex(of: "\""), let last = message.lastIndex(of: "\""), first < last else { return message }
        return message[..<first] + "\"…\"" + message[message.index(after: last)...]
    }
}
