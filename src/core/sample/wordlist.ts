/**
 * A small built-in English word list for the quality screen's dictionary ratio, standing in for
 * NLTK `words` as the benchmark does when NLTK is missing. Written for the sample release:
 * common English words plus the vocabulary of the sample's own document kinds. Names of people
 * and places are deliberately absent, so name-heavy text scores lower, as it does on real data.
 */
const WORDS = `
a abilities able aboard about above abroad absence absences absent absolute absolutely accept acceptable
accepted accepts access accessible accident accidents accommodation accompany according account accountant
accountants accounting accounts accurate accused achieve achieved acquire acquisition acres across act acting
action actions active activities activity actors actual actually add added adding addition additional address
addressed addresses adds adequate adjust administration admit admitted adopt adult adults advance advanced
advantage advantages advice advise advised adviser advising advisory affair affairs affect affected affidavit
affidavits afford afraid after afternoon afternoons afterwards again against age aged agencies agency agenda
agent agents ago agree agreed agreement agreements agrees ahead aid aim air aircraft airfield airlines airport
airports airstrip alike alive all allow allowed allows almost alone along already also alter although always
am amend among amount amounts an analysis ancient and anger angle angry animal animals announce announced
annual another answer answered answering answers anticipate anxious any anybody anyhow anyone anything anyway
anywhere apart apartment apartments apologise apology apparent apparently appeal appeals appear appearance
appearances appeared appears application applications applied applies apply appoint appointed appointment
appointments appreciate approach appropriate approval approve approved approximately april architect
architectural are area areas argue argument arguments arise arm arms army around arrange arranged arrangement
arrangements arrival arrivals arrive arrived arrives arriving art article articles artist artists as aside ask
asked asking asks aspect aspects assess asset assets assign assigned assist assistance assistant assistants
associate association assume assumed assured at attach attached attachment attachments attack attempt attempts
attend attended attending attends attention attorney attorneys attract audience audit august aunt author
authorities authority authors automatic autumn available avenue average avoid avoided await awards aware away
awful babies baby back background bad badly bag baggage bags balance ball ban band bank banker banking banks
bar barely bars base based bases basic basin basis bath bay be beach beacon bear beat beautiful beauty became
because become becomes becoming bed bedroom beds been before began begin beginning beginnings begins behalf
behind being belief believe believed believes bell belong belongs below belt bench beneficiary benefit
benefits berth berthing beside besides best better between beyond big bikes bill billion bills bind bird birds
birth birthday bit black blame blank block blood blow blue board boards boat boats bodies body bond bones book
booked booking bookings books border born borrow borrowed boss bosses both bother bottle bottles bottom bought
bound box boxes boy boys brain branch branches brand brave bread break breakfast bridge brief briefly bright
bring brings broad broke broken broker brother brothers brought brown budget build building buildings builds
built burn bus buses business businesses busy but buy buyer buyers buying buys by cabin cake cakes calendar
call called calling calls calm came camera cameras camp campaign can cancel cancelled candidate cannot capable
capacity capital capt captain car card cards care career careers careful carefully cares carried carries carry
cars case cases cash cat catch catching catering cats caught cause caused causes cay ceiling celebrate cell
center centre centres century certain certainly certification chain chair chairman chairs challenge chamber
chance chancery chances change changed changes changing channels chapel chapters character charge charged
charges charitable charity chart charter chartered charters charts cheap check checked checking checks
cheerful cheers chef chest chief child children choice choices choose chose chosen church churches circuit
circumstances cities citizen city civil claim claimed claims class classes clean cleaned cleaning clear
cleared clearly clerk clever client clients cliff cliffs climb clinic clinics clock close closed closely
closes closing clothes club clubs coast coastal coastline coats cockpit code coffee cold colleagues collect
collection college colour colours column combination come comes comfortable coming command comment comments
commercial commission commit committee committees common communicate community companies company compare
compared compel competition complain complaint complaints complete completed completely complex computers
concern concerned concerning concerns concert conclude concludes condition conditions conduct conference
confident confidential confirm confirmation confirmed confirming confused connect connection consider
considerable considered consignment constant construction consult consultant consultants consulting contact
contacted contacts contain contains content context continue continued continues contract contractor contracts
contrast contribute control controlled convenient conversation cook cooking cool copied copies copilot copy
corner correct cost costly costs could council counsel count counter countries country county couple couples
courier course courses court courts cousin cousins cove cover covered create created credit crescent crew
crime criminal crisis critical cross crowd cry cultural culture cup curious current currently customer
customers customs cut daily damage dance danger dangerous dark data date dated dates daughter daughters day
days dead deal dealer deals dear death debate debt decade december decent decide decided decision decisions
declare deed deep defence defendant defendants define definite definitely degree degrees delay delete delicate
delighted deliver delivered delivery demand department departments departure departures depend depends deposed
deposit deposition depth describe described description desert design designed designs desk despite detail
detailed details determine develop developed developer development device did die died difference differences
different difficult difficulty dining dinner dinners direct direction directly director directors dirty
disappear disclosure discover discovery discuss discussed discussion dismiss dismissal display distance
distribution district divide do dock docket docks doctor doctors document documents does dog dogs doing dollar
dollars donation donations done door doors double doubt doubts down dozen dr draft drama draw drawings dream
dreams dredging dress dressed drew drink drinks drive driven driver drivers drives driving drop dropped drug
dry due duly dune dunes during duties duty each eager ear early earn earned earnings earth easily east easy
eat eating economic economy edge edges edition education effect effective effects efficient effort efforts
eggs eight eighteen eighty either elderly elect election elections electric element eligible else elsewhere
email embassy emergency employ employee employees empty end ended enemy energy engine engineer engines enjoy
enjoyed enough ensure enter entered entire entirely environment equal equipment error escape escrow especially
essential establish estate estimate estimates estuary even evening evenings event events eventually ever every
everybody everyone everything evidence exact exactly examination examine examined example examples excellent
except exchange excited excuse executive exercise exhibit exhibition exhibits exist existing expansion expect
expected expense expensive experience experienced expert experts explain explained express extend extended
extension extent extra extremely eye eyes face faces facility facing fact factor facts fail failed fair fairly
faith fall false familiar families family famous fan fancy far farm farmers fast father fathers fault favour
favourite fear feature features february fee feel feeling feels fees fell felt female ferry few field fields
fifteen fifty fight figure figures file filed files filing filings fill filled fills film films final finally
finance financial financier find finds fine fingers finish finished fire firm firms first fish fishing fit
fits five fix fixed flat flew flexible flies flight flights floor floors flow flower flowers flu fly flying
folder folders follow followed following follows food foot for force forces foreign forget forgot forgotten
form formal formed former forms fortnight fortunate forty forward found foundation four fourteen frank free
freedom french frequent fresh friday friend friendly friends from front fuel full fully fun function fund
funding funds funny further furthermore future gain game games garage garden gardening gardens gas gate gates
gather gave general generally generous gentle gentleman genuine get gets getting gift gifts girl girls give
given gives glad glass global go goal goals goes going gold gone good goods got govern government grand grant
grateful great green greeting grew ground group groups grow grown growth guard guess guessed guest guests
guide guilty gun guns had hair half hall hand handle handled hands handsome hang hangar happen happened happy
harbor harbour hard hardly harm has hated hats have having he head heading heads health healthy hear heard
hearing hearings hears heart heat heating heavy held hello help helped helpful helps hence her here hereafter
hereby herein herself hi high highly hill hills him himself hire hired his historical history hit hold holder
holding holds holiday holidays home homes hon honest honour hope hoped hopeful hopefully hopes horse horses
hospital hospitals host hosting hot hotel hotels hour hours house housed household houses housing how however
huge human humble hundred hurt husband husbands i idea ideal ideas identify if ill illegal image images
imagine immediate immediately impact important impossible impression improve in inch include included includes
including income incorrect increase increased indeed independent indicate individual industry inform
information informed initial injunction injury inland inlet inner innocent inquiry inside instead institution
instruction insurance intelligent intend intended intends interest interested interesting internal
international interview into introduce investment investor invite invited invoice involve involved iron is
island islands issue issues it item items itineraries itinerary its itself january jet jetty job jobs join
joined joint joke joking journey judge judging judgment july jump june junior jurisdiction jury just justice
keen keep keeping keeps kept key keys kid kids kill kills kind kinds king kings kitchen knew know knowledge
known knows laboratory labour lack ladies lady lagoon laid lake lakes land landing lands lane lanes language
large largely last lasted late later latest laugh laughed law lawsuit lawyer lawyers lay lazy lead leader
leaders leading learn least leave leaves led left leg legal lend length lent less lesson lessons let lets
letter letters level levels liable library licence lie life lift light lighthouse lighting lights like liked
likely likes likewise limine limit line lines link list listed listen listing lists litigation little live
lived lives living loan loans local location locations lock lodge log logs lonely long look looked looking
looks loop loose lose loss lost lot loud love loved lovely low lower luck lucky luggage lunch lunches machine
machines made magazine mail main mainly maintain maintenance major make makes making male man manage managed
management manager managers manifest manifests many maps march marina mark marked market markets marriage
married match matches material matter matters mature may maybe me meadow meal meals mean meaning means meant
meanwhile measure media medical meet meeting meetings meets member members memory mental mention mentioned
menu mere message messages met method methods midday middle midnight might mild mile military milk million
mind minded mine minister minor minute minutes miss missed missing mistake mixed model models modern modest
moment moments monday money month monthly months moral more moreover morning mornings most mother mothers
motion motions mountain mouth move moved movement moving mr mrs ms much museum music must my myself name named
names narrow nation national native natural nature navigator near nearby nearly neat necessary neck need
needed needs neighbour neither nervous net never nevertheless new news newspaper next nice night nightly
nights nine nineteen ninety no nobody noise none nonetheless noon nor normal normally north not notable notary
note noted notes nothing notice noticed notify november now number numbers nurse oath object objection
objections obtain obvious obviously occasion occupation occur ocean october odd of off offer offered offers
office officer officers offices official often oil old on once one ones only onto open opened opening operate
operation opinion opportunity oppose option or orchard order ordering orders ordinary organisation organised
original other others otherwise ought our ours ourselves out outer outgoing outside over overall overnight
overseas own owned owner owners owning owns pack package page pages paid pain painful paint pair pale paper
papers paperwork parade parent parents park parking parks part particular particularly parties partner
partners parts party pass passed passenger passengers past path patient patients pattern pay payable paying
payment payments peace pen pens people per percent perfect perform perhaps period periods permanent person
personal persons petition petitioner philanthropist phone photo photograph photographs photos physician pick
picked picture pictures piece pieces pier pilot pilots place placed places plain plaintiff plaintiffs plan
plane planned planning plans plant plants plate play played players pleasant please pleased pledge plenty plus
pm pocket point pointed points police policies policy polite political poor popular population port position
positive possible possibly post posted posting potential pound power powerful practical practice precious
prefer prepare prepared present presented president press pressure pretty prevent previous price prices
pricing primary prime print printed prior prison private privileged probable probably problem problems
procedure proceeding proceedings process produce produced product products prof profession professional profit
programme programmes progress prohibited project projects promise promised proper properties property proposal
propose proposed protect protection protective proud prove proved provide provided public publicist publicly
pull pulled purchase pure purpose push pushed put puts quality quarter quarterly quash quay quayside question
questions quick quickly quiet quite quiz race radio rain rains raise raised ran range rapid rare rate rates
rather re reach reached read reader readers reading reads ready real realise realised reality really reason
reasonable reasons recall receive received recent recently recipient record recorded recording records recover
red reduce reduced reef refer reference refinancing reflect refuel refuelled refuse refused regard regarded
regarding regardless regards regatta region register regular regularly reimbursement relate related relation
relationship release released relevant reliable remain remained remaining remarks remember remembered remind
reminded reminder remote remove removed renewal renovation rent repair repairs repayment repeat repeated
rephrase replied reply report reported reporter reports represent request requested requests require required
research reserve reserved residence residency resident residents resort respect respective respondent response
responsible rest restaurant restructuring result results retainer return returned review reviewed rich ride
right rights ring rings rise risk river rivers road roads rock rocks role roles roof roofing room rooms rough
round route routine row royal rude rule rules ruling rulings run running runs runway rush sad safe safety said
sail sailing salaries salary sale sales same sat satisfied saturday save saves saving saw say saying says
scale scene schedule scheduled scheme school schools science scientist sea seal sealed sealing seals season
seat seating seats second seconds secret secretary section sections secure security see seem seems seen sell
selling sells send sender sends senior sense sensible sent sentence separate september series serious serve
served service services session sessions set sets setting settled settlement settlements seven seventeen
seventy several severe shake shall shape share shared shares sharp she ship shipping ships shoes shop shopping
shops shore shoreline short shot should shoulder show shown shows shut shy sick side sign signed significant
signs silence silent silly similar simple simply since sincere sincerely single sir sister sisters sit site
sites sits sitting situation six sixteen sixty size sizes skill skills sleep sleeps slight slightly slim slow
slowly small smart smile smooth so social society soft sold solid solved some somebody someone something
sometimes somewhat somewhere son sons soon sorry sort sound sounds source sources south space spaces speak
speaking speaks special specific speech speed spend spending spends spent spirit spoke sport spot spring
square staff staffing stage stages stand standard standing star stars start started starting starts state
stated statement states station stations stay stays steady step steps still stipulations stock stop stopped
storage store stored stories storing storm story straight strange street streets strength strict strictly
strike strong strongly student students studied studies study stuff stupid style subject subjects subpoena
subpoenas subsequent substantial succeed success successful such sudden suddenly sufficient suggest suggested
suit suitable suits sum summary summer summons sun sunday super superior supply support supported suppose sure
surface surprise survey surveying swear sweet swim swimming sworn system systems table tables take
taken takes taking talk talked talks tall tape task tasks tax taxi taxied tea teach teaching team teams tear
teeth telephone tell tells temperature temporary ten tend tender tent tents term terms terrace terrible test
tested testified than thank thanked thanks that the theatre their them themselves then there thereafter
thereby therefore these they thick thin thing things think thinking thinks third thirty this those though
thought thoughts thousand three through throughout thursday thus ticket tickets tide tides tie tight till time
times timetable timing tiny title titles to today together told tomorrow tonight too took top total touch
tough tour towards town towns trade trading traditional traffic train training transcript transcripts transfer
transmission transport travel traveling travelled travelling treat treatment tree trees trial tried trip trips
trouble true trust trustee trustees truth try trying tuesday turn turning turns twelve twenty twice two type
types typical ugly unable unauthorised uncertain uncle under understand understanding understood unit united
units unless unlikely unreliable until unusual up update upon upper upset urgent us usd use used useful users
uses usual usually vague valid valley valuable value values variety various vast vehicle verdict version very
via video videographer videotaped view views village villages visible visit visited visitor visitors visits
vital voice voices volume volunteers vote wait waiting waits waived wake walk walked walking wall walls want
wanted wants war warm warned warning was wash watch watched water way we weak wealth wealthy wear wears
weather website wedding wednesday week weekday weekdays weekend weekly weeks weight welcome well went were
west wet wharf what whatever when whenever where whereas whereupon wherever whether which while white who
whoever whole whom whose why wide wife wild will willing win wind window wing winning wins winter wire wired
wise wish wished wishes with within without witness witnesses wives woman women wonder wonderful wood word
wording words work worked worker workers working works world worried worry worse worth would write writes
writing written wrong wrote yacht yard year yearly years yes yesterday yet you young your yours yourself youth
zone
`;

export const ENGLISH_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter((w) => w.length > 0));
