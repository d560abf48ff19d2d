/// The iOS 17 colours of an inset grouped list, light or dark: UIKit picks them from the trait
/// collection; here the page's background decides (a dark background gets the dark palette, as
/// the Now Playing pages are drawn in dark mode).
public struct ListPalette: Equatable, Sendable {
    /// `secondarySystemGroupedBackground`: a section's card.
    public var cell: Color
    /// `systemGray4`: a pressed or selected row.
    public var highlight: Color
    /// `label`: a row's title.
    public var label: Color
    /// `secondaryLabel`: a row's detail.
    public var secondaryLabel: Color
    /// `tertiaryLabel`: the disclosure chevron.
    public var chevron: Color
    /// `separator`: the hairline between rows.
    public var separator: Color
    /// `systemGreen`: a switch's track when on.
    public var switchOn = Color(rgb: 0x34C759)
    /// A switch's track when off (`systemFill`, on the cell).
    public var switchOff = Color(rgb: 0xE9E9EA)
    /// `tertiaryLabel`: a disabled row's title.
    public var disabledLabel = Color.tertiaryLabel

    public static let light = ListPalette(
        cell: .white, highlight: .systemGray4, label: .black, secondaryLabel: .secondaryLabel,
        chevron: .tertiaryLabel, separator: .separator
    )
    public static let dark = ListPalette(
        cell: Color(rgb: 0x2C2C2E), highlight: Color(rgb: 0x3A3A3C), label: .white,
        secondaryLabel: Color(rgb: 0xEBEBF5, alpha: 0x99), chevron: Color(rgb: 0xEBEBF5, alpha: 0x4D),
        separator: Color(rgb: 0x545458, alpha: 0x99), switchOn: Color(rgb: 0x30D158), switchOff: Color(rgb: 0x39393D),
        disabledLabel: Color(rgb: 0xEBEBF5, alpha: 0x4D)
    )

    /// The palette for a list drawn on `background`.
    public static func on(_ background: Color) -> ListPalette {
        background.contrastingText == .white ? .dark : .light
    }
}
