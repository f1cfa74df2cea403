/** Shared boilerplate and filler of the sample corpus (plain, common English on purpose). */
export const EMAIL_DISCLAIMER =
  'This message and any attachments are confidential and may be privileged. If you are not the intended recipient, ' +
  'please notify the sender immediately and delete this message. Any unauthorised review, use, disclosure or ' +
  'distribution of this message is strictly prohibited.';

export const FAX_FOOTER =
  'If you did not receive all pages of this transmission, please call the office as soon as possible.';

export const DEPOSITION_PREAMBLE = [
  'APPEARANCES:',
  'For the plaintiff, counsel as noted on the record. For the defendant, counsel as noted on the record.',
  'ALSO PRESENT: the videographer and the court reporter.',
  'STIPULATIONS',
  'It is hereby agreed by and between counsel for the respective parties that the sealing, filing and certification of the within deposition are waived, and that all objections, except as to the form of the question, shall be reserved until the time of trial.',
  'It is further agreed that the within deposition may be signed before any notary public with the same force and effect as if signed before the court.',
  'THE VIDEOGRAPHER: We are now on the record. This is the beginning of media number one in the video deposition. Will counsel please state their appearances for the record, after which the court reporter will swear in the witness.',
  'Whereupon, the witness, having first been duly sworn to tell the truth, the whole truth and nothing but the truth, was examined and testified as follows.',
  'EXAMINATION',
  'Q. Good morning. Would you please state your full name for the record?',
];

export const FILLER_SENTENCES = [
  'Please let me know if you have any questions.',
  'I will be traveling most of next week but can take calls in the evening.',
  'Thanks again for your help with this.',
  'We can go over the details when we speak on Friday.',
  'I have copied the office so that they can update the schedule.',
  'The weather here has been terrible, so the garden work is on hold again.',
  'Could you send me the latest version of the file when you have a moment?',
  'I spoke with the team this morning and everyone agreed with the plan.',
  'Sorry for the slow reply, it has been a very busy month.',
  'We should also think about the dates for the summer, as the house fills up quickly.',
  'The driver will be waiting at the usual place.',
  'Let us keep this between us until the board has seen the numbers.',
  'I have asked for the paperwork to be sent by courier.',
  'The new assistant starts on Monday and will handle the calendar from then on.',
  'My phone has been unreliable, so email is the best way to reach me.',
  'Please make sure the guest rooms are ready before the weekend.',
  'There is no need to reply to this note.',
  'I still have not heard back from the accountants about the year end.',
  'The office will be closed for the holiday, but messages will be checked daily.',
  'We can discuss the budget once the estimates come in.',
  'I think the meeting went well, although nothing was decided.',
  'The photos from the dinner are in the shared folder.',
  'Remind me to call the insurance people about the boat.',
  'The kitchen staff asked whether there are any special requests for the menu.',
  'I would rather not put any of this in writing.',
  'It was good to see you, and I hope the trip home was easy.',
  'The contractor promised to finish the roof before the rains.',
  'We are still waiting for the signed copies to come back.',
  'Let me know which evening suits you best.',
  'Please treat the attached list as a first draft only.',
  'Happy to help with anything else you need.',
  'The school called again about the fees for the autumn term.',
  'I have moved the call to the afternoon because of the time difference.',
  'Nothing urgent, just keeping you in the loop.',
  'The car needs a service before the long drive next month.',
  'We found the old letters in a box in the storage room.',
];

export const SIGN_OFFS = ['Best regards,', 'Kind regards,', 'Thanks,', 'Best,', 'Warm wishes,', 'Regards,', 'Cheers,'];

export const NEWSLETTER_PARAGRAPHS = [
  'The harbour committee met this month to review the plans for the new sea wall. Members agreed that the work should begin after the summer season, when the marina is less busy and the boats can be moved to the north basin.',
  'Our annual garden party raised a record sum for the local school. We thank all of the volunteers who gave up their weekend to set up the tents, serve the food and clear everything away afterwards.',
  'Residents are reminded that the coastal road will be closed for repairs during the first two weeks of next month. Please allow extra time for travel and use the inland route where possible.',
  'The library has extended its opening hours on weekdays and now offers free reading sessions for children on Saturday mornings. New members are always welcome.',
  'The sailing club will hold its open day at the end of the month. Visitors can try a short trip on the water with an experienced member and learn about the training courses for the coming year.',
  'A number of readers have written to ask about the ferry timetable for the winter. The new timetable will be posted at the harbour office and on the notice board outside the town hall.',
  'The medical centre would like to remind patients that the flu clinics will run every Tuesday and Thursday morning until the end of the year. No appointment is needed.',
  'The historical society is looking for old photographs of the town for a new exhibition. If you have any pictures that you would be willing to lend, please contact the secretary.',
];
