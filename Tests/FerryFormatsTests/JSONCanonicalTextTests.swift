import FerryFormats
import Testing

/// The canonical text a manifest's digest is taken of (`JSONValue.canonicalText`).
struct JSONCanonicalTextTests {
    private func canonical(_ text: String) throws -> String {
        String(decoding: try JSONValue(parsing: Array(text.utf8)).canonicalText, as: UTF8.self)
    }

    @Test("layout, member order and escapes do not change the canonical text; a key, a value or a number's spelling does")
    func canonicalText() throws {
        let text = try canonical(#"{"b": [1, true, null], "a": {"z": "x\"y\\\u0001", "é": "\u00e9/"}}"#)
        #expect(text == #"{"a":{"z":"x\"y\\\u0001","é":"é/"},"b":[1,true,null]}"#)
        #expect(try canonical("{\n  \"a\" : {\"\\u00e9\" : \"é\\/\", \"z\" : \"x\\\"y\\\\\\u0001\"},\n  \"b\" : [ 1, true, null ]\n}\n") == text)
        for other in [#"{"b": [1, true, null], "A": {"z": "x\"y\\\u0001", "é": "é/"}}"#, #"{"b": [1, true, null], "a": {"z": "x\"y\\\u0002", "é": "é/"}}"#,
                      #"{"b": [1.0, true, null], "a": {"z": "x\"y\\\u0001", "é": "é/"}}"#, #"{"b": [true, 1, null], "a": {"z": "x\"y\\\u0001", "é": "é/"}}"#] {
            #expect(try canonical(other) != text, "\(other)")
        }
        // Members sort by their keys' UTF-8 bytes (U+00E9 after "z"); one key given twice keeps its order.
        #expect(try canonical(#"{"k": 2, "é": 0, "k": 1, "Z": 3}"#) == #"{"Z":3,"k":2,"k":1,"é":0}"#)
    }
}
