/**
 * Data the seeded orders are drawn from: an Indian neighbourhood pharmacy that also sells
 * groceries, its customers' areas and names. Prices are rupees (the spec leaves the currency open).
 */

export interface CatalogueItem {
  readonly sku: string;
  readonly name: string;
  readonly displayMeasurement: string;
  /** Maximum retail price. */
  readonly mrp: number;
  /** Price charged (at or under MRP). */
  readonly selling: number;
  readonly prescriptionRequired: boolean;
}

export const CATALOGUE: readonly CatalogueItem[] = [
  { sku: 'PH-DOLO650', name: 'Dolo 650 Tablet', displayMeasurement: '15 tablets', mrp: 33.6, selling: 30.24, prescriptionRequired: false },
  { sku: 'PH-CROCINADV', name: 'Crocin Advance 500 mg', displayMeasurement: '20 tablets', mrp: 39.0, selling: 37.05, prescriptionRequired: false },
  { sku: 'PH-AZITH500', name: 'Azithral 500 Tablet', displayMeasurement: '5 tablets', mrp: 127.5, selling: 114.75, prescriptionRequired: true },
  { sku: 'PH-AUGMENTIN625', name: 'Augmentin 625 Duo Tablet', displayMeasurement: '10 tablets', mrp: 223.44, selling: 201.1, prescriptionRequired: true },
  { sku: 'PH-PAN40', name: 'Pan 40 Tablet', displayMeasurement: '15 tablets', mrp: 155.0, selling: 139.5, prescriptionRequired: true },
  { sku: 'PH-GLYCOMET500', name: 'Glycomet 500 SR Tablet', displayMeasurement: '20 tablets', mrp: 38.2, selling: 34.38, prescriptionRequired: true },
  { sku: 'PH-TELMA40', name: 'Telma 40 Tablet', displayMeasurement: '30 tablets', mrp: 289.0, selling: 260.1, prescriptionRequired: true },
  { sku: 'PH-ATORVA10', name: 'Atorva 10 Tablet', displayMeasurement: '15 tablets', mrp: 118.5, selling: 106.65, prescriptionRequired: true },
  { sku: 'PH-THYRONORM50', name: 'Thyronorm 50 mcg Tablet', displayMeasurement: '120 tablets', mrp: 214.0, selling: 192.6, prescriptionRequired: true },
  { sku: 'PH-HUMINSULIN', name: 'Huminsulin R 40 IU/ml Injection', displayMeasurement: '10 ml vial', mrp: 168.0, selling: 159.6, prescriptionRequired: true },
  { sku: 'PH-CETZINE10', name: 'Cetzine 10 mg Tablet', displayMeasurement: '10 tablets', mrp: 19.8, selling: 18.81, prescriptionRequired: false },
  { sku: 'PH-ELECTRAL', name: 'Electral ORS Powder Orange', displayMeasurement: '21.8 g sachet', mrp: 22.0, selling: 22.0, prescriptionRequired: false },
  { sku: 'PH-DIGENE', name: 'Digene Acidity Gel Mint', displayMeasurement: '200 ml', mrp: 146.0, selling: 138.7, prescriptionRequired: false },
  { sku: 'PH-BETADINE', name: 'Betadine 5% Ointment', displayMeasurement: '20 g', mrp: 128.0, selling: 121.6, prescriptionRequired: false },
  { sku: 'PH-VOLINI', name: 'Volini Pain Relief Spray', displayMeasurement: '60 g', mrp: 199.0, selling: 179.1, prescriptionRequired: false },
  { sku: 'PH-VICKS', name: 'Vicks VapoRub', displayMeasurement: '50 ml', mrp: 165.0, selling: 156.75, prescriptionRequired: false },
  { sku: 'PH-BANDAID', name: 'Band-Aid Washproof Strips', displayMeasurement: '20 strips', mrp: 60.0, selling: 57.0, prescriptionRequired: false },
  { sku: 'PH-DETTOL500', name: 'Dettol Antiseptic Liquid', displayMeasurement: '500 ml', mrp: 245.0, selling: 232.75, prescriptionRequired: false },
  { sku: 'PH-SAVLONHW', name: 'Savlon Herbal Handwash Refill', displayMeasurement: '750 ml', mrp: 99.0, selling: 89.0, prescriptionRequired: false },
  { sku: 'PH-SHELCAL500', name: 'Shelcal 500 Tablet', displayMeasurement: '15 tablets', mrp: 129.95, selling: 116.96, prescriptionRequired: false },
  { sku: 'GR-AMULTAAZA', name: 'Amul Taaza Toned Milk', displayMeasurement: '500 ml', mrp: 28.0, selling: 28.0, prescriptionRequired: false },
  { sku: 'GR-AASHIRVAAD5', name: 'Aashirvaad Shudh Chakki Atta', displayMeasurement: '5 kg', mrp: 310.0, selling: 279.0, prescriptionRequired: false },
  { sku: 'GR-TATASALT', name: 'Tata Salt Iodised', displayMeasurement: '1 kg', mrp: 28.0, selling: 27.0, prescriptionRequired: false },
  { sku: 'GR-TOORDAL', name: 'Tata Sampann Toor Dal', displayMeasurement: '1 kg', mrp: 215.0, selling: 189.0, prescriptionRequired: false },
  { sku: 'GR-FORTUNEOIL', name: 'Fortune Sunlite Sunflower Oil', displayMeasurement: '1 l pouch', mrp: 175.0, selling: 149.0, prescriptionRequired: false },
  { sku: 'GR-PARLEG', name: 'Parle-G Gold Biscuits', displayMeasurement: '1 kg', mrp: 150.0, selling: 135.0, prescriptionRequired: false },
  { sku: 'GR-MAGGI4', name: 'Maggi 2-Minute Masala Noodles', displayMeasurement: '4 x 70 g', mrp: 56.0, selling: 54.0, prescriptionRequired: false },
  { sku: 'GR-BASMATI', name: 'India Gate Basmati Rice Classic', displayMeasurement: '1 kg', mrp: 235.0, selling: 199.0, prescriptionRequired: false },
  { sku: 'GR-HORLICKS', name: 'Horlicks Classic Malt Refill', displayMeasurement: '500 g', mrp: 265.0, selling: 246.0, prescriptionRequired: false },
  { sku: 'GR-CURD', name: 'Nandini Fresh Curd', displayMeasurement: '400 g', mrp: 30.0, selling: 30.0, prescriptionRequired: false },
];

export interface Area {
  readonly locality: string;
  readonly city: string;
  readonly state: string;
  readonly pincode: string;
  readonly lat: number;
  readonly lon: number;
}

/** Areas a single store in Bengaluru delivers to. */
export const AREAS: readonly Area[] = [
  { locality: 'Indiranagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', lat: 12.9719, lon: 77.6412 },
  { locality: 'Koramangala 5th Block', city: 'Bengaluru', state: 'Karnataka', pincode: '560095', lat: 12.9352, lon: 77.6245 },
  { locality: 'HSR Layout Sector 2', city: 'Bengaluru', state: 'Karnataka', pincode: '560102', lat: 12.9116, lon: 77.6389 },
  { locality: 'Domlur', city: 'Bengaluru', state: 'Karnataka', pincode: '560071', lat: 12.961, lon: 77.6387 },
  { locality: 'Jeevan Bima Nagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560075', lat: 12.9667, lon: 77.6585 },
  { locality: 'Ejipura', city: 'Bengaluru', state: 'Karnataka', pincode: '560047', lat: 12.9446, lon: 77.6276 },
  { locality: 'Old Airport Road, Murugeshpalya', city: 'Bengaluru', state: 'Karnataka', pincode: '560017', lat: 12.9582, lon: 77.6565 },
  { locality: 'Ulsoor', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', lat: 12.9817, lon: 77.6186 },
];

export const BUILDINGS: readonly string[] = [
  'Flat 302, Sai Residency',
  '14, 2nd Cross',
  'No. 7, Lakshmi Nilaya',
  'A-1104, Prestige Shantiniketan',
  '221, 12th Main',
  'G-3, Sobha Daffodil',
  '45/2, 80 Feet Road',
  'Villa 18, Adarsh Palm Retreat',
];

export const FIRST_NAMES: readonly string[] = [
  'Aarav', 'Ananya', 'Vikram', 'Priya', 'Rohan', 'Kavya', 'Arjun', 'Meera', 'Siddharth', 'Lakshmi',
  'Rahul', 'Divya', 'Karthik', 'Sneha', 'Imran', 'Fatima', 'Harpreet', 'Nikhil', 'Pooja', 'Suresh',
];

export const LAST_NAMES: readonly string[] = [
  'Sharma', 'Iyer', 'Reddy', 'Nair', 'Patel', 'Gowda', 'Khan', 'Menon', 'Rao', 'Singh', 'Bhat', 'Das',
];

/** The one store every seeded order is for. */
export const STORE = {
  serviceProviderId: 'SP-BLR-0142',
  platformId: 'PLT-7731',
  name: 'Sandbox Pharmacy & General Store',
  address: {
    building: '118, Ground Floor, HAL 2nd Stage',
    locality: 'Indiranagar',
    city: 'Bengaluru',
    state: 'Karnataka',
    country: 'IND',
    pincode: '560038',
    formattedAddress: '118, Ground Floor, HAL 2nd Stage, Indiranagar, Bengaluru, Karnataka 560038',
    lat: 12.9784,
    lon: 77.6408,
  },
  phone: '08041234567',
} as const;

/** Where item images would live; `.example` is reserved, so nothing real is ever fetched. */
export const IMAGE_BASE = 'https://images.sandbox-store.example/items';
