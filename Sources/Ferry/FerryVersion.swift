/// The version of Ferry, shown by `ferry --version` and written into export manifests.
public enum FerryVersion {
    public static let current = "0.1.0"
}
