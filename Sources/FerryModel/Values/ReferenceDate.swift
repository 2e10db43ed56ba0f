/// Core Data's reference date: dates are stored as seconds since 2001-01-01 00:00:00 UTC.
public enum ReferenceDate {
    /// Seconds from the Unix epoch (1970-01-01) to the reference date.
    public static let unixOffset: Double = 978_307_200
}
