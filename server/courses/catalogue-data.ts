/**
 * The demo catalogue. Each subject lists its courses for levels 100–500, one group per level and
 * semester in order (100 first, 100 second, 200 first, …). A course's code is the subject, then
 * level digit, semester digit and position: the third first-semester BIO course at 200 level
 * is "BIO 213".
 *
 * Kept one line per level and semester, so it reads as a timetable.
 */
// prettier-ignore
export const CATALOGUE: Record<string, { units: number[]; groups: string[][] }> = {
  GSE: {
    units: [2, 2, 2],
    groups: [
      ["Use of English I", "Nigerian Peoples and Culture", "Citizenship Education"],
      ["Use of English II", "Basic Computer Literacy", "History and Philosophy of Science"],
      ["Communication in English", "Logic and Critical Thinking", "Entrepreneurship Education I"],
      ["Peace and Conflict Resolution", "Library and Information Literacy", "Entrepreneurship Education II"],
      ["Advanced Writing Skills", "Environmental Education", "Family Life and Sex Education"],
      ["Drug Abuse Education", "Civic Education and Leadership", "Introduction to French"],
      ["Research Writing and Reporting", "Gender Studies", "Human Rights Education"],
      ["Moral and Ethical Values", "Population Education", "Climate Change Awareness"],
      ["Public Speaking", "Nigerian Government and Politics", "Consumer Education"],
      ["Digital Citizenship", "Health and Safety Education", "Career Development"],
    ],
  },
  EDU: {
    units: [3, 3, 2, 3],
    groups: [
      ["Introduction to Education", "History of Education in Nigeria", "Child Development", "Introduction to Teaching Profession"],
      ["Philosophy of Education", "Sociology of Education", "Developmental Psychology", "Micro-Teaching Theory"],
      ["Educational Psychology", "Curriculum Studies", "Principles of Teaching", "Guidance and Counselling"],
      ["Educational Technology", "Measurement and Evaluation", "Classroom Management", "Special Education"],
      ["Educational Research Methods", "Educational Statistics", "Adult and Non-Formal Education", "School Management"],
      ["Teaching Practice I", "Comparative Education", "Inclusive Education", "Learning Disabilities"],
      ["Educational Administration", "Economics of Education", "Instructional Design", "Teaching Practice Seminar"],
      ["Teaching Practice II", "Research Project Seminar", "Test Construction", "Educational Planning"],
      ["Advanced Curriculum Development", "Supervision of Instruction", "Education Law", "Research Project I"],
      ["Contemporary Issues in Education", "Teacher Education in Nigeria", "Policy Analysis in Education", "Research Project II"],
    ],
  },
  BIO: {
    units: [4, 3, 3, 3],
    groups: [
      ["General Biology I", "Cell Biology", "Introductory Botany", "Biology Laboratory Techniques"],
      ["General Biology II", "Introductory Zoology", "Diversity of Plants", "Field Biology"],
      ["Genetics", "Invertebrate Zoology", "Plant Anatomy", "Biology Teaching Methods I"],
      ["Vertebrate Zoology", "Plant Physiology", "Introductory Microbiology", "Ecology"],
      ["Animal Physiology", "Biochemistry for Biologists", "Evolution", "Biology Teaching Methods II"],
      ["Parasitology", "Entomology", "Plant Pathology", "Biostatistics"],
      ["Molecular Biology", "Hydrobiology", "Developmental Biology", "Biology Curriculum Studies"],
      ["Environmental Biology", "Immunology", "Mycology", "Biology Practicals Workshop"],
      ["Biotechnology", "Conservation Biology", "Genetics of Populations", "Seminar in Biology Education"],
      ["Systematic Biology", "Applied Ecology", "Bioinformatics", "Biology Education Project"],
    ],
  },
  CHM: {
    units: [4, 3, 3, 3],
    groups: [
      ["General Chemistry I", "Atomic Structure and Bonding", "Introductory Physical Chemistry", "Chemistry Laboratory Safety"],
      ["General Chemistry II", "Introductory Organic Chemistry", "Introductory Inorganic Chemistry", "Basic Practical Chemistry"],
      ["Chemical Thermodynamics", "Organic Reaction Mechanisms", "Chemistry of Main Group Elements", "Chemistry Teaching Methods I"],
      ["Chemical Kinetics", "Analytical Chemistry", "Transition Metal Chemistry", "Volumetric Analysis"],
      ["Electrochemistry", "Aromatic Chemistry", "Coordination Chemistry", "Chemistry Teaching Methods II"],
      ["Spectroscopy", "Instrumental Analysis", "Industrial Chemistry", "Chemistry Curriculum Studies"],
      ["Quantum Chemistry", "Natural Products Chemistry", "Environmental Chemistry", "Polymer Chemistry"],
      ["Surface Chemistry", "Petroleum Chemistry", "Organometallic Chemistry", "Chemistry Practicals Workshop"],
      ["Advanced Physical Chemistry", "Medicinal Chemistry", "Nuclear Chemistry", "Seminar in Chemistry Education"],
      ["Advanced Organic Synthesis", "Chemical Process Technology", "Food Chemistry", "Chemistry Education Project"],
    ],
  },
  CSC: {
    units: [4, 3, 3, 3],
    groups: [
      ["Introduction to Computer Science", "Introduction to Problem Solving", "Computer Hardware Basics", "Keyboarding and Office Tools"],
      ["Introduction to Programming", "Digital Logic", "Web Page Design", "Computer Applications in Education"],
      ["Structured Programming", "Data Structures", "Computer Architecture", "Computer Science Teaching Methods I"],
      ["Object-Oriented Programming", "Operating Systems", "Discrete Structures", "Database Fundamentals"],
      ["Algorithms", "Systems Analysis and Design", "Computer Networks", "Computer Science Teaching Methods II"],
      ["Software Engineering", "Database Management Systems", "Web Programming", "Computer Science Curriculum Studies"],
      ["Artificial Intelligence", "Computer Graphics", "Human-Computer Interaction", "E-Learning Systems"],
      ["Compiler Construction", "Information Security", "Mobile Application Development", "Computer Laboratory Management"],
      ["Distributed Systems", "Data Science", "Educational Software Design", "Seminar in Computer Science Education"],
      ["Cloud Computing", "Machine Learning", "Project Management", "Computer Science Education Project"],
    ],
  },
  MTH: {
    units: [4, 3, 3, 3],
    groups: [
      ["Algebra", "Trigonometry", "Set Theory and Logic", "Number Systems"],
      ["Calculus I", "Coordinate Geometry", "Vectors", "Elementary Statistics"],
      ["Calculus II", "Linear Algebra I", "Mathematical Methods", "Mathematics Teaching Methods I"],
      ["Differential Equations", "Linear Algebra II", "Probability", "Numerical Methods"],
      ["Real Analysis I", "Abstract Algebra", "Mechanics", "Mathematics Teaching Methods II"],
      ["Real Analysis II", "Complex Analysis", "Operations Research", "Mathematics Curriculum Studies"],
      ["Topology", "Group Theory", "Mathematical Statistics", "History of Mathematics"],
      ["Functional Analysis", "Graph Theory", "Optimisation", "Mathematics Laboratory"],
      ["Measure Theory", "Partial Differential Equations", "Mathematical Modelling", "Seminar in Mathematics Education"],
      ["Number Theory", "Fluid Dynamics", "Cryptography", "Mathematics Education Project"],
    ],
  },
  ENG: {
    units: [4, 3, 3, 3],
    groups: [
      ["Introduction to Phonetics", "Introduction to Literature", "English Grammar I", "Reading Skills"],
      ["Introduction to Phonology", "African Literature in English", "English Grammar II", "Writing Skills"],
      ["English Morphology", "Introduction to Drama", "Oral Literature", "English Teaching Methods I"],
      ["English Syntax", "Introduction to Poetry", "The Novel", "Language Testing"],
      ["Semantics", "Nigerian Literature", "Sociolinguistics", "English Teaching Methods II"],
      ["Discourse Analysis", "Literary Criticism", "Psycholinguistics", "English Curriculum Studies"],
      ["Stylistics", "Shakespeare Studies", "Applied Linguistics", "English as a Second Language"],
      ["Pragmatics", "Modern Poetry", "Creative Writing", "Language Laboratory Practice"],
      ["Contrastive Linguistics", "Postcolonial Literature", "Translation Studies", "Seminar in English Education"],
      ["Varieties of English", "Literature and Society", "Media English", "English Education Project"],
    ],
  },
  SOS: {
    units: [4, 3, 3, 3],
    groups: [
      ["Introduction to Social Studies", "Man and His Environment", "Social Institutions", "Nigerian Social Problems"],
      ["Foundations of Citizenship", "Introduction to Economics", "Introduction to Geography", "Culture and Society"],
      ["Social Studies Curriculum", "Introduction to Political Science", "Population Studies", "Social Studies Teaching Methods I"],
      ["Nigerian Economy", "Introduction to Sociology", "Map Reading", "Community Development"],
      ["Government of Nigeria", "Social Psychology", "Human Geography", "Social Studies Teaching Methods II"],
      ["International Relations", "Rural Development", "Social Change", "Social Studies Evaluation"],
      ["Comparative Politics", "Development Economics", "Urbanisation", "Social Studies Materials Development"],
      ["Public Administration", "Environmental Management", "Conflict and Security", "Field Studies in Social Studies"],
      ["Globalisation and Society", "Social Policy", "Human Rights and Democracy", "Seminar in Social Studies Education"],
      ["Regional Integration in Africa", "Social Research Methods", "Indigenous Knowledge Systems", "Social Studies Education Project"],
    ],
  },
  PES: {
    units: [4, 3, 3, 3],
    groups: [
      ["Introduction to Primary Education", "Primary School Mathematics I", "Primary School English I", "Play and Learning"],
      ["Primary School Curriculum", "Primary School Mathematics II", "Primary School English II", "Arts and Crafts"],
      ["Teaching Basic Science", "Primary School Social Studies", "Literacy Development", "Primary Teaching Methods I"],
      ["Teaching Nigerian Languages", "Primary School Agriculture", "Physical and Health Education", "Music for Primary Schools"],
      ["Assessment in Primary Schools", "Teaching Reading", "Numeracy Development", "Primary Teaching Methods II"],
      ["Instructional Materials for Primary Schools", "Pupil Guidance", "Home Economics for Primary Schools", "Religious and Moral Education"],
      ["Multigrade Teaching", "Remedial Teaching", "Primary School Administration", "Child Rights and Protection"],
      ["Community and the School", "Primary School Supervision", "Action Research", "Storytelling and Drama"],
      ["Comparative Primary Education", "Early Literacy Research", "Teacher Leadership", "Seminar in Primary Education"],
      ["Innovations in Primary Education", "Mathematics Anxiety in Pupils", "School-Based Assessment", "Primary Education Project"],
    ],
  },
  ECE: {
    units: [4, 3, 3, 3],
    groups: [
      ["Introduction to Early Childhood Education", "Child Health and Nutrition", "Infant Development", "Early Childhood Environments"],
      ["History of Early Childhood Education", "Play Pedagogy", "Child Observation", "Songs and Rhymes"],
      ["Early Childhood Curriculum", "Language Development in Children", "Creative Activities", "Early Childhood Teaching Methods I"],
      ["Social Development of Children", "Early Numeracy", "Child Safety", "Parenting Education"],
      ["Early Childhood Assessment", "Children's Literature", "Special Needs in Early Years", "Early Childhood Teaching Methods II"],
      ["Managing Early Childhood Centres", "Emergent Literacy", "Cognitive Development", "Outdoor Learning"],
      ["Early Childhood Policy", "Inclusive Early Years", "Child Psychology", "Learning Through Technology"],
      ["Family and Community Partnerships", "Early Childhood Research", "Transition to Primary School", "Care of Infants and Toddlers"],
      ["Comparative Early Childhood Education", "Early Intervention", "Leadership in Early Years", "Seminar in Early Childhood Education"],
      ["Trends in Early Childhood Education", "Child Advocacy", "Documentation of Learning", "Early Childhood Education Project"],
    ],
  },
};

/** Every programme takes GSE and EDU courses plus its two teaching subjects. */
export const GENERAL_SUBJECTS = ["GSE", "EDU"];

/** The teaching subjects of each demo programme. */
export const PROGRAMME_SUBJECTS: Record<string, string[]> = {
  "NCE Biology/Chemistry": ["BIO", "CHM"],
  "B.Sc.(Ed.) Computer Science Education": ["CSC", "MTH"],
  "NCE English/Social Studies": ["ENG", "SOS"],
  "NCE Primary Education Studies": ["PES", "ECE"],
};
