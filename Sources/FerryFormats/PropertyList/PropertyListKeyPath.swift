/// Key paths for encoding errors: `/` is the root, `/Pets/0` the first element of `Pets`.
///
/// Writers build them only on failure, by prefixing each enclosing container's component while
/// the error unwinds, so the success path pays nothing.
extension PropertyListError {
    /// This error as seen from the container that holds the failing value under `component`.
    func nested(in component: String) -> PropertyListError {
        guard case .unencodable(let reason, let keyPath) = self else { return self }
        return .unencodable(reason: reason, keyPath: "/" + component + (keyPath == "/" ? "" : keyPath))
    }
}
